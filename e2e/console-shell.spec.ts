import { expect, test } from '@playwright/test';
import { createUser, loginViaUi } from './helpers';

test('an anonymous visitor of a guarded page is sent to the login page, and back after logging in', async ({
  page,
  request,
}) => {
  const user = await createUser(request);
  await page.goto('/user/edit');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/user\/edit$/);
  await expect(page.getByLabel('Username')).toHaveValue(user.username);
});

test('the login page explains an expired session', async ({ page }) => {
  await page.goto('/login?expired=true');
  await expect(page.getByText('Not logged in or login expired, please log in again!')).toBeVisible();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText('Not logged in or login expired, please log in again!')).toHaveCount(0);
});

test('a session the server no longer knows sends the visitor to the login page with the notice', async ({
  page,
  request,
}) => {
  await loginViaUi(page, await createUser(request));
  await page.context().clearCookies();
  await page.goto('/user/edit');
  await expect(page).toHaveURL(/\/login\?expired=true$/);
  await expect(page.getByText('Not logged in or login expired, please log in again!')).toBeVisible();
});

test('an unknown address shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page does not exist, please check your browser address')).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the header shows the system name and the page title follows it', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('banner').getByText('Gatehouse', { exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Gatehouse');
});
