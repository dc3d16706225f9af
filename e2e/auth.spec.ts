import { expect, test } from '@playwright/test';
import { expectToast, loginViaApi, ROOT, uniqueUsername } from './helpers';

test('a visitor registers, then logs in and lands on the keys page', async ({ page }) => {
  const username = uniqueUsername('reg');
  const password = 'correct-horse';

  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill('something-else');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('The two passwords entered do not match')).toBeVisible();

  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expectToast(page, 'Registration successful!');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectToast(page, 'Login successful!');
  await expect(page).toHaveURL(/\/token$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('root with the default password is sent to edit its profile with a warning', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(ROOT.username);
  await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page).toHaveURL(/\/user\/edit$/);
  await expectToast(page, 'Please change the default password immediately!');
  await expect(page.getByLabel('Username')).toHaveValue('root');
  // Admins see the admin entries of the menu.
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Channels' })).toBeVisible();
});

test('a user renames itself, and logs out from the account menu', async ({ page, request }) => {
  const username = uniqueUsername('self');
  const password = 'first-password';
  await request.post('/api/user/register?turnstile=', {
    data: { username, password, password2: password, email: '', verification_code: '', aff_code: '' },
  });
  await loginViaApi(page, { username, password });
  await page.goto('/user/edit');
  // Ordinary users do not see the admin entries.
  await expect(page.getByRole('navigation').getByRole('link', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Channels' })).toHaveCount(0);

  await page.getByLabel('Display name').fill('Renamed Person');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'User info updated successfully!');
  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Renamed Person');
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Renamed Person');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expectToast(page, 'Logout successful!');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/user/edit');
  await expect(page).toHaveURL(/\/login$/);
});
