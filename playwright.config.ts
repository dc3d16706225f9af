import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CONSOLE_PORT as PORT, STAND_IN_URL } from './e2e/support/stand-in-config';

// Fixed so a failed run leaves no doubt where it ran; E2E_PORT lets two checkouts' runs coexist on one machine.
const baseURL = `http://127.0.0.1:${PORT}`;

// A fresh database per run, so root still has its first-start password. Workers re-read this file, and inherit
// the variable from the main process, so they all see the same path.
process.env.E2E_SQLITE_PATH ??= path.join(os.tmpdir(), `gatehouse-e2e-${Date.now()}`, 'gatehouse.db');

if (!existsSync('apps/web/dist/index.html')) {
  throw new Error(
    'No console build: run `npm run build -w @gatehouse/web` first (`npm run test:e2e` does it).',
  );
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    headless: true,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's chromium: this project never downloads a browser.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: [
    {
      // SMTP and GitHub for the account journeys (e2e/support/stand-ins.ts).
      command: 'node --import tsx e2e/support/stand-ins.ts',
      url: `${STAND_IN_URL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node --import tsx apps/server/src/main.ts',
      url: `${baseURL}/api/status`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        SQLITE_PATH: process.env.E2E_SQLITE_PATH,
        SESSION_SECRET: 'e2e-secret',
        LOG_LEVEL: 'warn',
        // Journeys log in and register far more often than a person would; the default limits would trip.
        GLOBAL_WEB_RATE_LIMIT: '100000',
        GLOBAL_API_RATE_LIMIT: '100000',
        CRITICAL_RATE_LIMIT: '100000',
        GITHUB_OAUTH_BASE_URL: STAND_IN_URL,
        GITHUB_API_BASE_URL: STAND_IN_URL,
      },
    },
  ],
});
