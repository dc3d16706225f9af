import { expect, test } from '@playwright/test';
import { createUser, loginViaApi } from './helpers';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone the menu folds behind a toggle, and its links work', async ({ page }) => {
  await page.goto('/');
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  await expect(toggle).toBeVisible();
  await expect(page.getByRole('link', { name: 'Tutorial' })).toBeHidden();

  await toggle.click();
  await expect(page.getByRole('link', { name: 'Tutorial' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' }).first()).toBeVisible();

  await page.getByRole('navigation').getByRole('link', { name: 'Tutorial' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('link', { name: 'Tutorial' })).toBeHidden();

  await toggle.click();
  await page.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('on a phone a logged-in user reaches its pages from the menu', async ({ page, request }) => {
  await loginViaApi(page, await createUser(request));
  await page.goto('/');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(page.getByRole('link', { name: 'API keys', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});
