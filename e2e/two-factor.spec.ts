import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ROOT, createUser, expectToast, loginViaApi } from './helpers';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expectToast(page, 'Logout successful!');
}

async function passwordStep(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login\/2fa$/);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

test('a user turns on two-factor sign-in, then signs in with a code from the app and with a recovery code', async ({
  page,
  request,
}, testInfo) => {
  // Three sign-ins and an enrolment: longer than one journey's default on a busy machine.
  test.setTimeout(90_000);
  const user = await createUser(request, 'tfa');
  await loginViaApi(page, user);
  await page.goto('/setting');
  const section = page.locator('.mantine-Paper-root').filter({ hasText: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Turn on' }).click();

  // The key as the page shows it for typing into an app (groups of four).
  const shownKey = await section.getByTestId('two-factor-secret').innerText();
  const totp = new TOTP({ secret: Secret.fromBase32(shownKey.replace(/\s/g, '')) });
  await expect(section.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
  await section.screenshot({ path: testInfo.outputPath('enrol-1280.png') });
  await page.setViewportSize(PHONE);
  await section.screenshot({ path: testInfo.outputPath('enrol-390.png') });
  await page.setViewportSize(DESKTOP);

  await section.getByLabel('Code from the app').fill(totp.generate());
  await section.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expectToast(page, 'Two-factor sign-in is on');
  const codes = await section.getByTestId('recovery-codes').locator('code').allInnerTexts();
  expect(codes).toHaveLength(10);
  await section.screenshot({ path: testInfo.outputPath('recovery-codes-1280.png') });
  await page.setViewportSize(PHONE);
  await section.screenshot({ path: testInfo.outputPath('recovery-codes-390.png') });
  await page.setViewportSize(DESKTOP);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('10 recovery codes left')).toBeVisible();
  await page.setViewportSize(PHONE);
  await section.screenshot({ path: testInfo.outputPath('enabled-390.png') });
  await page.setViewportSize(DESKTOP);

  await logOut(page);
  await passwordStep(page, user.username, user.password);
  await page.screenshot({ path: testInfo.outputPath('login-step-1280.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: testInfo.outputPath('login-step-390.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);
  // The code the enrolment was confirmed with is spent: the app's next one signs in (six digits submit).
  await page.getByLabel('Code', { exact: true }).fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await expectToast(page, 'Login successful!');
  // Back where the visitor was sent to log in from.
  await expect(page).toHaveURL(/\/setting$/);

  await logOut(page);
  await passwordStep(page, user.username, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectToast(page, 'Login successful!');

  // Each recovery code works once.
  await logOut(page);
  await passwordStep(page, user.username, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The code is wrong or has already been used')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/2fa$/);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
});

test('root resets the two-factor sign-in of a user who lost their phone, in the admin user edit', async ({
  page,
  playwright,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  const user = await createUser(request, 'tfr');
  // The user turns it on through the API, with a session of their own.
  const own = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const login = (await (await own.post('/api/user/login', { data: user })).json()) as {
    data: { id: number };
  };
  const started = (await (await own.post('/api/user/2fa/enroll')).json()) as { data: { secret: string } };
  const totp = new TOTP({ secret: Secret.fromBase32(started.data.secret) });
  const confirmed = (await (
    await own.post('/api/user/2fa/confirm', { data: { code: totp.generate() } })
  ).json()) as {
    success: boolean;
  };
  expect(confirmed.success).toBe(true);
  await own.dispose();

  await loginViaApi(page, ROOT);
  await page.goto(`/user/edit/${login.data.id}`);
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: testInfo.outputPath('user-edit-reset-390.png'), fullPage: true });
  await page.getByRole('button', { name: 'Reset two-factor sign-in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
  await expectToast(page, `Two-factor sign-in of ${user.username} was reset`);
  await expect(page.getByRole('button', { name: 'Reset two-factor sign-in' })).toHaveCount(0);

  // Their password alone signs them in again.
  const again = (await (await request.post('/api/user/login', { data: user })).json()) as {
    data: { username?: string };
  };
  expect(again.data.username).toBe(user.username);
});
