import { readFileSync } from 'node:fs';
import { expect, test, type Download } from '@playwright/test';
import { createUser, expectToast, loginViaApi, ROOT } from './helpers';

/** The log type of a top-up row, as the export writes it (LogType.topup). */
const TOPUP = 1;

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
  const redeemer = await createUser(request, 'top');
  await loginViaApi(userPage, redeemer);
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

  // The export is the server's streamed CSV of every matching row (its own rows for a user), saved by the browser.
  const csvLines = async (file: Download) =>
    readFileSync((await file.path())!, 'utf8')
      .trim()
      .split('\r\n');
  const exporting = userPage.waitForEvent('download');
  await userPage.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await exporting;
  expect(csvFile.suggestedFilename()).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
  const lines = await csvLines(csvFile);
  expect(lines[0]).toMatch(/^id,time,type,username,token_name,model_name,channel,/);
  expect(lines.slice(1).length).toBeGreaterThan(0);
  for (const line of lines.slice(1)) expect(line.split(',')[3]).toBe(redeemer.username);
  expect(lines.some((line) => line.includes(`,${TOPUP},`) && line.includes('Redeemed $1.00'))).toBe(true);
  await userContext.close();

  // Root exports everyone's rows under the page's filters: the username filter gives that user's rows only.
  await page.goto('/log');
  await page.getByLabel('Username').fill(redeemer.username);
  await page.getByRole('textbox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Top-up' }).click();
  const rootExporting = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const rootLines = await csvLines(await rootExporting);
  expect(rootLines).toHaveLength(2);
  expect(rootLines[1]).toContain(`,${TOPUP},${redeemer.username},`);

  // root sees the used code in the list, its toggle off
  await page.goto(`/redemption?keyword=${batch}`);
  const used = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Used', exact: true }) });
  await expect(used).toHaveCount(1);
  await expect(used.getByRole('button', { name: 'Enable' })).toBeDisabled();
});
