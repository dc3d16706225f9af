import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Role } from '@gatehouse/shared';
import { buildApp, type BuildAppOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config/config';
import { closeContext, createContext, type AppContext } from '../src/context';
import { hashPassword } from '../src/auth/password';
import { insertUser } from '../src/users/user-repository';
import type { UserRow } from '../src/db/schema';

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  /** removes the database and stops the app */
  close(): Promise<void>;
}

/**
 * A real app on a fresh SQLite file in a temp folder: the same code path as production, no mocks.
 * `env` overrides the environment the config is read from; `appOptions` gives it a logger, for instance.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  appOptions: BuildAppOptions = {},
): Promise<TestApp> {
  const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-test-'));
  const config: Config = loadConfig({
    SQLITE_PATH: path.join(folder, 'test.db'),
    SESSION_SECRET: 'test-session-secret-that-is-long-enough',
    WEB_DIST_PATH: path.join(folder, 'no-console'),
    // Suites log in dozens of times from 127.0.0.1; accounts-rate-limits.test.ts proves the limits.
    CRITICAL_RATE_LIMIT: '100000',
    GLOBAL_API_RATE_LIMIT: '100000',
    GLOBAL_WEB_RATE_LIMIT: '100000',
    ...env,
  });
  const context = await createContext(config);
  const app = await buildApp(context, appOptions);
  await app.ready();
  return {
    app,
    context,
    async close() {
      await app.close();
      await closeContext(context);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export interface Session {
  user: UserRow;
  /** headers that authenticate as this user (the session cookie) */
  headers: Record<string, string>;
}

let userCounter = 0;

/** Creates a user directly in the database with the given role and logs it in through the real route. */
export async function createUserSession(
  test: TestApp,
  overrides: { role?: number; quota?: number; username?: string; password?: string; group?: string } = {},
): Promise<Session> {
  userCounter += 1;
  const username = overrides.username ?? `user${process.pid % 1000}x${userCounter}`.slice(0, 12);
  const password = overrides.password ?? 'password123';
  await insertUser(test.context.db, {
    username,
    password: await hashPassword(password),
    role: overrides.role ?? Role.common,
    quota: overrides.quota ?? 0,
    group: overrides.group ?? 'default',
  });
  return loginAs(test, username, password);
}

export async function loginAs(test: TestApp, username: string, password: string): Promise<Session> {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username, password },
  });
  const body = response.json<{ success: boolean; message: string }>();
  if (!body.success) throw new Error(`login as ${username} failed: ${body.message}`);
  const user = await test.context.db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return { user, headers: { cookie: sessionCookie(response) } };
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((candidate) => candidate.name === 'gatehouse_session');
  if (!cookie) throw new Error('no session cookie in the response');
  return `${cookie.name}=${cookie.value}`;
}

/** The envelope of a response, typed loosely for assertions. */
export function envelope<T = unknown>(
  response: LightMyRequestResponse,
): { success: boolean; message: string; data: T } {
  return response.json();
}
