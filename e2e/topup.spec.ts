import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createUser, expectToast, loginViaApi, ROOT } from './helpers';

test('root creates three codes as a file; a user redeems one, sees the balance rise, the log row and its CSV', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  await loginViaApi(page, ROOT);
  await page.goto('/redemption/add');
  await expect(page.getByLabel('Quota')).toHaveValue('100,000');
  await expect(page.getByLabel('Count', { exact: true })).toHaveValue('1');
  const batch = `gift${Date.now().toString(36).slice(-6)}`;
  await page.getByLabel(/^Name/).fill(batch);
  await page.getByLabel('Quota').fill('500000');
  await page.getByLabel('Count', { exact: true }).fill('3');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Submit' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${batch}.txt`);
  const codes = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n');
  expect(codes).toHaveLength(3);
  for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{32}$/);
  await expectToast(page, 'Redemption codes created successfully!');

  await page.goto(`/redemption?keyword=${batch}`);
  await expect(page.getByRole('row').filter({ hasText: batch })).toHaveCount(3);

  const userContext = await browser.newContext({ baseURL });
  const userPage = await userContext.newPage();
  await loginViaApi(userPage, await createUser(request, 'top'));
  await userPage.goto('/topup');
  const balance = userPage.getByTestId('topup-balance');
  await expect(balance).toHaveText('$0.00');
  await userPage.getByRole('button', { name: 'Redeem' }).click();
  await expectToast(userPage, 'please enter redemption code');

  await userPage.getByLabel('Redemption code').fill(codes[0]!);
  await userPage.getByRole('button', { name: 'Redeem' }).click();
  await expectToast(userPage, 'Redemption successful! Quota added: $1.00');
  await expect(balance).toHaveText('$1.00');
  await expect(userPage.getByLabel('Redemption code')).toHaveValue('');

  // the same code a second time
  await userPage.getByLabel('Redemption code').fill(codes[0]!);
  await userPage.getByRole('button', { name: 'Redeem' }).click();
  await expectToast(userPage, 'This redemption code has already been used');
  await expect(balance).toHaveText('$1.00');

  await userPage.goto('/log');
  const topupRow = userPage.getByRole('row').filter({ hasText: 'Top-up' });
  await expect(topupRow).toHaveCount(1);
  await expect(topupRow).toContainText('Redeemed $1.00 with redemption code');
  // ordinary users get neither the username nor the channel filter
  await expect(userPage.getByLabel('Username')).toHaveCount(0);

  const exporting = userPage.waitForEvent('download');
  await userPage.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await exporting;
  expect(csvFile.suggestedFilename()).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
  const csv = readFileSync(await csvFile.path(), 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toContain('Time,Type,Username');
  expect(lines.some((line) => line.includes('Top-up') && line.includes('Redeemed $1.00'))).toBe(true);
  await userContext.close();

  // root sees the used code in the list, its toggle off
  await page.reload();
  const used = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Used', exact: true }) });
  await expect(used).toHaveCount(1);
  await expect(used.getByRole('button', { name: 'Enable' })).toBeDisabled();
});
