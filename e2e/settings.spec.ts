import { expect, test } from '@playwright/test';
import { createUser, expectToast, loginViaApi, ROOT } from './helpers';

test('root renames the system in Other settings and the header shows it', async ({ page }) => {
  await loginViaApi(page, ROOT);
  await page.goto('/setting');
  await page.getByRole('tab', { name: 'Other settings' }).click();
  const name = page.getByLabel('System name');
  await expect(name).toHaveValue(/.+/);
  const original = await name.inputValue();
  const renamed = `Acme ${Date.now().toString(36).slice(-4)}`;
  try {
    await name.fill(renamed);
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expectToast(page, 'Settings saved');
    await expect(page.getByRole('banner').getByText(renamed)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('banner').getByText(renamed)).toBeVisible();
  } finally {
    // Other journeys expect the default branding.
    await page.request.put('/api/option/', { data: { key: 'SystemName', value: original } });
  }
});

test('root sees the ratio editor refuse invalid JSON with the shared schema message', async ({ page }) => {
  await loginViaApi(page, ROOT);
  await page.goto('/setting?tab=operation');
  const ratio = page.getByLabel('Model ratio');
  await ratio.fill('{"gpt-4": 15,');
  await page.getByRole('button', { name: 'Save' }).nth(1).click();
  await expectToast(page, 'Model ratio is not a valid JSON string');
  const options = await (await page.request.get('/api/option/')).json();
  const saved = (options.data as Array<{ key: string; value: string }>).find(
    (entry) => entry.key === 'ModelRatio',
  );
  expect(saved?.value).not.toContain('"gpt-4": 15,');
});

test('a normal user sees only personal settings, generates a token and copies the invite link', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const member = await createUser(request, 'pers');
  await loginViaApi(page, member);
  await page.goto('/setting');
  await expect(page.getByRole('tab')).toHaveText(['Personal settings']);
  await page.goto('/setting?tab=system');
  await expect(page.getByRole('tab')).toHaveText(['Personal settings']);

  await page.getByRole('button', { name: 'Generate system access token' }).click();
  await expectToast(page, 'Token reset and copied to clipboard');
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^[0-9a-f]{32}$/);
  const self = await page.request.get('/api/user/self', { headers: { Authorization: token } });
  expect((await self.json()).data.username).toBe(member.username);

  await page.getByRole('button', { name: 'Copy invite link' }).click();
  await expectToast(page, 'Invite link copied to clipboard');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/register\?aff=\w{8}$/);
});

test('self-deletion asks for the username and refuses a wrong one', async ({ page, request }) => {
  const member = await createUser(request, 'del');
  await loginViaApi(page, member);
  await page.goto('/setting');
  await page.getByRole('button', { name: 'Delete personal account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Type your username to confirm').fill(`${member.username}x`);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expectToast(page, 'Please enter your account name to confirm deletion!');
  const stillThere = await page.request.post('/api/user/login', { data: member });
  expect((await stillThere.json()).success).toBe(true);

  await dialog.getByLabel('Type your username to confirm').fill(member.username);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expectToast(page, 'Account deleted!');
  await expect(page).toHaveURL(/\/login/);
  const gone = await page.request.post('/api/user/login', { data: member });
  expect((await gone.json()).success).toBe(false);
});
