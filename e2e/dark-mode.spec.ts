import { expect, test } from '@playwright/test';

test('the console switches to dark and remembers it after a reload', async ({ page }) => {
  await page.goto('/login');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');

  await page.getByRole('button', { name: 'Change colour scheme' }).click();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  await page.reload();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

test('a stored dark scheme applies before the console code runs (no light flash)', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('gatehouse-color-scheme', 'dark'));
  // Keep the console's bundle from loading: whatever paints is the page before React mounts.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.locator('#root')).toBeEmpty();
});
