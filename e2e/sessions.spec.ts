import { expect, test } from '@playwright/test';
import { createUser, loginViaApi } from './helpers';

test('a user signs out a session on another device from personal settings, and that device is signed out', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const user = await createUser(request);
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  });
  const phonePage = await phone.newPage();
  await loginViaApi(phonePage, user);
  await loginViaApi(page, user);

  await page.goto('/setting');
  await expect(page.getByText('This device')).toBeVisible();
  await expect(page.getByText('Safari on iOS')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('sessions-desktop.png'), fullPage: true });

  await phonePage.goto('/setting');
  await expect(phonePage.getByText('This device')).toBeVisible();
  await expect(phonePage.getByText('Chrome on Linux')).toBeVisible();
  await phonePage.screenshot({ path: testInfo.outputPath('sessions-390.png'), fullPage: true });

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByText('Session signed out')).toBeVisible();
  await expect(page.getByText('Safari on iOS')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();

  // The phone's cookie no longer signs anyone in.
  await phonePage.goto('/user/edit');
  await expect(phonePage).toHaveURL(/\/login\?expired=true$/);
  await phone.close();
});
