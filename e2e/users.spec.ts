import { expect, test, type Page } from '@playwright/test';
import { createUser, expectToast, loginViaApi, ROOT } from './helpers';

async function confirmAction(page: Page, row: ReturnType<Page['getByRole']>, action: string): Promise<void> {
  await row.getByRole('button', { name: action, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expectToast(page, 'Operation completed successfully!');
}

test('root searches a user, promotes, disables and re-enables it from the list', async ({
  page,
  request,
}) => {
  const member = await createUser(request, 'list');
  await loginViaApi(page, ROOT);
  await page.goto('/user');
  await expect(page.getByRole('heading', { name: 'Manage users' })).toBeVisible();

  const search = page.getByPlaceholder('Search by ID, username, display name or email ...');
  await search.fill(member.username);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ hasText: member.username });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Normal user')).toBeVisible();
  // The super admin row's actions are all disabled; it is not in this search.
  await expect(page.getByRole('row').filter({ hasText: 'Super admin' })).toHaveCount(0);

  await confirmAction(page, row, 'Promote');
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Promote', exact: true })).toBeDisabled();

  await confirmAction(page, row, 'Disable');
  await expect(row.getByText('Banned')).toBeVisible();
  const refused = await page.request.post('/api/user/login', { data: member });
  expect((await refused.json()).success).toBe(false);

  await confirmAction(page, row, 'Enable');
  await expect(row.getByText('Activated')).toBeVisible();
  // The list answers what the server holds after a reload too.
  await page.reload();
  await expect(
    page.getByRole('row').filter({ hasText: member.username }).getByText('Admin', { exact: true }),
  ).toBeVisible();
});

test('root edits a user’s quota and group', async ({ page, request }) => {
  const member = await createUser(request, 'quota');
  await loginViaApi(page, ROOT);
  await page.goto(`/user`);
  const search = page.getByPlaceholder('Search by ID, username, display name or email ...');
  await search.fill(member.username);
  await search.press('Enter');
  await page
    .getByRole('row')
    .filter({ hasText: member.username })
    .getByRole('link', { name: 'Edit' })
    .click();

  await expect(page.getByRole('heading', { name: 'Edit user' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(member.username);
  const quota = page.getByLabel('Remaining quota');
  await quota.fill('2500000');
  await expect(page.getByText('Equals $5.00 (2.5M)')).toBeVisible();
  const group = page.getByRole('textbox', { name: 'Group' });
  await group.fill('vip');
  await group.press('Enter');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'User info updated successfully!');
  await expect(page).toHaveURL(/\/user$/);

  const found = await page.request.get(`/api/user/search?keyword=${member.username}`);
  const [user] = (await found.json()).data as Array<{ quota: number; group: string }>;
  expect(user).toMatchObject({ quota: 2500000, group: 'default,vip' });
});

test('root adds a user who can then log in', async ({ page }) => {
  await loginViaApi(page, ROOT);
  await page.goto('/user');
  await page.getByRole('link', { name: 'Add user' }).click();
  await expect(page).toHaveURL(/\/user\/add$/);
  const username = `add${Date.now().toString(36).slice(-8)}`;
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await page.getByRole('textbox', { name: /^Username/ }).fill(username);
  await page.getByLabel(/^Password/).fill('new-user-pass');
  await page.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'User account created successfully!');
  await expect(page).toHaveURL(/\/user$/);
  const login = await page.request.post('/api/user/login', { data: { username, password: 'new-user-pass' } });
  expect((await login.json()).success).toBe(true);
});
