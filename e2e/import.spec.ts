import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createSourceDatabase, seedSource } from '../apps/server/test/support/one-api-fixtures';
import { expectToast, loginViaApi, ROOT } from './helpers';

/**
 * Root imports a one-api SQLite database from System settings: a dry run reports what would be written and
 * writes nothing, the import writes it, and the imported user and channel are in the lists (and the user
 * signs in with the old password). The section is checked at 390 px too.
 */
const SHOTS = process.env.E2E_SCREENSHOTS;
const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-e2e-import-'));
const sourceFile = path.join(folder, 'one-api.db');
/** The channels the source brings; removed afterwards so no later journey relays through them. */
const IMPORTED_CHANNELS = ['openai main', 'claude', 'deepseek'];
let oldPassword = '';

test.beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const source = await createSourceDatabase('one-api', 'sqlite', sourceFile);
  // Nothing listens on port 9 of loopback: the imported channels are never called here.
  ({ password: oldPassword } = await seedSource(source, 'one-api', 'sqlite', 'http://127.0.0.1:9'));
  await source.destroy();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await loginViaApi(page, ROOT);
  for (const name of IMPORTED_CHANNELS) {
    const found = (await (
      await page.request.get('/api/channel/search', { params: { keyword: name } })
    ).json()) as { data: Array<{ id: number; name: string }> };
    for (const channel of found.data.filter((row) => row.name === name)) {
      await page.request.delete(`/api/channel/${channel.id}`);
    }
  }
  // The source's SystemName was imported; later journeys expect ours.
  await page.request.put('/api/option/', { data: { key: 'SystemName', value: 'Gatehouse' } });
  await page.close();
  rmSync(folder, { recursive: true, force: true });
});

const countsOf = (page: Page, table: string) =>
  page
    .getByTestId('one-api-import-report')
    .getByRole('row')
    .filter({ hasText: new RegExp(`^${table}`) });

test('root dry-runs, then imports a one-api database, and finds its user and channel', async ({ page }) => {
  test.setTimeout(90_000);
  await loginViaApi(page, ROOT);
  await page.goto('/setting?tab=system');
  const section = page
    .getByText('Import from one-api / new-api')
    .locator('xpath=ancestor::div[contains(@class, "mantine-Paper-root")][1]');
  await section.getByLabel('Source database').fill(sourceFile);
  await expect(section.getByRole('button', { name: 'Import' })).toBeDisabled();
  await section.getByRole('button', { name: 'Dry run' }).click();

  const report = page.getByTestId('one-api-import-report');
  await expect(report.getByText('dry run, nothing written')).toBeVisible();
  // root exists here already: skipped and listed; alice and bob would be written.
  await expect(countsOf(page, 'users')).toHaveText(/^users321$/);
  await expect(countsOf(page, 'channels')).toHaveText(/^channels330$/);
  await expect(report.getByText(/#1 root: the username is taken here/)).toBeVisible();
  const dryRunLogin = await page.request.post('/api/user/login', {
    data: { username: 'alice', password: oldPassword },
  });
  expect(((await dryRunLogin.json()) as { success: boolean }).success).toBe(false);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/import-dry-run-desktop.png` });

  await section.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expectToast(page, 'Import finished');
  await expect(report.getByText('imported', { exact: true })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await report.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/import-section-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto('/user');
  const userSearch = page.getByPlaceholder('Search by ID, username, display name or email ...');
  await userSearch.fill('alice');
  await userSearch.press('Enter');
  // alice keeps her group and balance (2,000,000 quota = $4.00).
  const alice = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'alice', exact: true }) });
  await expect(alice).toContainText('vip');
  await expect(alice).toContainText('$4.00');

  await page.goto('/channel');
  const channelSearch = page.getByPlaceholder('Search by channel ID, name or base URL ...');
  await channelSearch.fill('openai main');
  await channelSearch.press('Enter');
  await expect(
    page.getByRole('row').filter({ has: page.getByText('openai main', { exact: true }) }),
  ).toBeVisible();

  const login = await page.request.post('/api/user/login', {
    data: { username: 'alice', password: oldPassword },
  });
  expect(((await login.json()) as { success: boolean }).success).toBe(true);
});
