import { expect, test, type Page } from '@playwright/test';
import { expectToast, loginViaApi, ROOT } from './helpers';

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

async function pickModel(page: Page, model: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Models' }).click();
  await page.getByRole('textbox', { name: 'Models' }).fill(model);
  await page.getByRole('option', { name: model, exact: true }).click();
}

test.beforeEach(async ({ page }) => {
  await loginViaApi(page, ROOT);
});

test('root creates a channel, edits its priority in place, disables, re-enables, copies and deletes it', async ({
  page,
}) => {
  // a long journey; on a busy shared machine it can outlast the default 30 s
  test.setTimeout(90_000);
  const name = uniqueName('openai');
  await page.goto('/channel');
  await page.getByRole('link', { name: 'Add new channel' }).click();
  await expect(page).toHaveURL(/\/channel\/add$/);

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'Key', exact: true }).fill('sk-e2e-upstream-key');
  await pickModel(page, 'gpt-4o');
  await pickModel(page, 'gpt-4o-mini');
  await page.getByRole('textbox', { name: 'Groups' }).fill('vip');
  await page.getByRole('textbox', { name: 'Groups' }).press('Enter');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Channel created successfully!');

  await expect(page).toHaveURL(/\/channel$/);
  const row = rowOf(page, name);
  await expect(row).toBeVisible();
  await expect(row.getByText('OpenAI', { exact: true })).toBeVisible();
  await expect(row.getByText('Enabled', { exact: true })).toBeVisible();
  await expect(row.getByText('Untested')).toBeVisible();

  const priority = page.getByLabel(`Priority of channel ${name}`);
  await priority.fill('7');
  await priority.press('Enter');
  await expectToast(page, 'Operation completed successfully!');
  await page.reload();
  await expect(page.getByLabel(`Priority of channel ${name}`)).toHaveValue('7');

  await rowOf(page, name).getByRole('button', { name: 'Disable' }).click();
  await expect(rowOf(page, name).getByText('Manually disabled')).toBeVisible();
  await rowOf(page, name).getByRole('button', { name: 'Enable' }).click();
  await expect(rowOf(page, name).getByText('Enabled', { exact: true })).toBeVisible();

  await rowOf(page, name).getByRole('button', { name: 'Copy' }).click();
  await expect(page).toHaveURL(/\/channel\/add\/\d+$/);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`${name} copy`);
  await expect(page.getByText('vip', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Channel created successfully!');
  const copy = rowOf(page, `${name} copy`);
  await expect(copy).toBeVisible();
  await expect(copy.getByLabel(`Priority of channel ${name} copy`)).toHaveValue('7');

  await rowOf(page, name).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Channel deleted successfully!');
  await expect(rowOf(page, name)).toHaveCount(0);
  await expect(rowOf(page, `${name} copy`)).toBeVisible();
});

test('a batch of three keys makes three rows', async ({ page }) => {
  const name = uniqueName('batch');
  await page.goto('/channel/add');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'Batch create' }).check();
  await page
    .getByRole('textbox', { name: 'Key', exact: true })
    .fill('sk-batch-one\nsk-batch-two\n\nsk-batch-three\n');
  await page.getByRole('button', { name: 'Fill related models' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, '3 channels created successfully!');
  await expect(rowOf(page, name)).toHaveCount(3);
});

test('invalid model mapping JSON is refused with its message', async ({ page }) => {
  await page.goto('/channel/add');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(uniqueName('mapping'));
  await page.getByRole('textbox', { name: 'Key', exact: true }).fill('sk-mapping');
  await pickModel(page, 'gpt-4o');
  await page.getByRole('textbox', { name: 'Model mapping' }).fill('{"gpt-4": gpt-4o}');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('model mapping must be valid JSON')).toBeVisible();
  await expect(page).toHaveURL(/\/channel\/add$/);
});

test('the form requires name and key, and a model', async ({ page }) => {
  await page.goto('/channel/add');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('please fill in channel name and channel key')).toBeVisible();
  await expect(page.getByText('please select at least one model')).toBeVisible();
});
