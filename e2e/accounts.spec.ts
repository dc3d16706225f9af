import { expect, test, type Page } from '@playwright/test';
import { createUser, expectToast, loginViaApi, loginViaUi, uniqueUsername } from './helpers';
import {
  asRoot,
  gitHubOptions,
  mailOptions,
  nextMailTo,
  setOptions,
  signInAtGitHub,
  weChatCodeFor,
  weChatOptions,
} from './support/account-stand-ins';
import { CONSOLE_URL, STAND_IN_URL } from './support/stand-in-config';

// Journeys change server-wide options as root; each restores them, because other specs share the server.

const uniqueId = () => Math.floor(Math.random() * 1e9);

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expectToast(page, 'Logout successful!');
}

test('a visitor registers with the code mailed to them', async ({ page, request }) => {
  await asRoot(request);
  await setOptions(request, [...(await mailOptions(request)), ['EmailVerificationEnabled', 'true']]);
  try {
    const username = uniqueUsername('mail');
    const email = `${username}@example.test`;
    await page.goto('/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse');
    await page.getByLabel('Confirm password').fill('correct-horse');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Get code' }).click();
    await expectToast(page, 'Verification code sent successfully, please check your mailbox!');
    await expect(page.getByRole('button', { name: /^resend \(\d+\)$/ })).toBeDisabled();

    const mail = await nextMailTo(request, email);
    const code = /verification code is: (\S+)/.exec(mail.text)?.[1];
    expect(code, mail.text).toMatch(/^[0-9A-Z]{6}$/);
    await page.getByLabel('Verification code').fill(code!);
    await page.getByRole('button', { name: 'Register' }).click();
    await expectToast(page, 'Registration successful!');
    await expect(page).toHaveURL(/\/login$/);

    await loginViaUi(page, { username, password: 'correct-horse' });
    const self = await (await page.request.get('/api/user/self')).json();
    expect(self.data.email).toBe(email);
  } finally {
    await setOptions(request, [['EmailVerificationEnabled', 'false']]);
  }
});

test('a user binds an e-mail, resets the forgotten password from the mailed link and logs in with the new one', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const member = await createUser(request, 'rst');
  const email = `${member.username}@example.test`;
  await asRoot(request);
  // The mailed link is built on the Server address only; without it the reset is refused.
  await setOptions(request, [...(await mailOptions(request)), ['ServerAddress', CONSOLE_URL]]);

  await loginViaApi(page, member);
  await page.goto('/setting');
  await page.getByRole('button', { name: 'Bind email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bind email address' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Get code' }).click();
  await expectToast(page, 'Verification code sent successfully, please check your mailbox!');
  await expect(dialog.getByRole('button', { name: /^resend \(\d+\)$/ })).toBeDisabled();
  const code = /verification code is: (\S+)/.exec((await nextMailTo(request, email)).text)?.[1];
  await dialog.getByLabel('Verification code').fill(code ?? '');
  await dialog.getByRole('button', { name: 'Bind' }).click();
  await expectToast(page, 'Email account bound successfully!');
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await logOut(page);

  await page.getByRole('link', { name: 'Reset it' }).click();
  await expect(page).toHaveURL(/\/reset$/);
  // The URL changes before the lazily loaded page replaces the login form, whose "Username or email" field a
  // loose 'Email' label would also match: wait for the reset page itself.
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Reset email sent successfully, please check your mailbox!');
  await expect(page.getByRole('button', { name: /^retry \(\d+\)$/ })).toBeDisabled();

  const mail = await nextMailTo(request, email);
  const link = /(http\S+\/user\/reset\?\S+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Email')).not.toBeEditable();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('button', { name: 'reset completed' })).toBeDisabled();
  const newPassword = page.getByLabel('New password');
  await expect(newPassword).toHaveValue(/.{12}/);
  const password = await newPassword.inputValue();
  await newPassword.click();
  await expectToast(page, 'New password copied to clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);

  const oldLogin = await request.post('/api/user/login', { data: member });
  expect((await oldLogin.json()).success).toBe(false);
  await loginViaUi(page, { username: member.username, password });
  await expect(page).toHaveURL(/\/token$/);
});

test('a visitor logs in with GitHub through the callback page; a user binds GitHub in settings', async ({
  page,
  request,
}) => {
  await asRoot(request);
  await setOptions(request, gitHubOptions);
  try {
    // A callback with a code and state nobody issued is refused and redirects.
    await page.goto('/oauth/github?code=forged&state=forged');
    await expectToast(page, 'The state is missing, wrong or expired; please start the sign-in again');
    await expect(page).toHaveURL(/\/login$/);

    const gitHubId = uniqueId();
    await signInAtGitHub(request, { id: gitHubId, login: `octo${gitHubId}`, name: 'Octo Cat' });
    await page.getByRole('button', { name: 'GitHub' }).click();
    await expect(page).toHaveURL(new RegExp(`^${STAND_IN_URL}/login/oauth/authorize\\?`));
    await page.getByRole('link', { name: 'Authorize' }).click();
    await expectToast(page, 'Login successful!');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Octo Cat');
    const self = await (await page.request.get('/api/user/self')).json();
    expect(self.data.github_id).toBe(String(gitHubId));
    await logOut(page);

    const member = await createUser(request, 'ghb');
    await loginViaApi(page, member);
    const otherId = uniqueId();
    await signInAtGitHub(request, { id: otherId, login: `cat${otherId}`, name: 'Cat' });
    await page.goto('/setting');
    await page.getByRole('button', { name: 'Bind GitHub account' }).click();
    await page.getByRole('link', { name: 'Authorize' }).click();
    await expectToast(page, 'GitHub account bound successfully!');
    await expect(page).toHaveURL(/\/setting$/);
    await expect(page.getByLabel('GitHub account ID')).toHaveValue(String(otherId));
  } finally {
    await setOptions(request, [['GitHubOAuthEnabled', 'false']]);
  }
});

test('a visitor logs in with the code from the WeChat dialog', async ({ page, request }) => {
  await asRoot(request);
  await setOptions(request, await weChatOptions(request));
  try {
    const openid = `oE2E${uniqueId()}`;
    await page.goto('/login');
    await page.getByRole('button', { name: 'WeChat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in with WeChat' });
    await expect(dialog.getByRole('img', { name: 'QR code of the WeChat official account' })).toHaveAttribute(
      'src',
      `${STAND_IN_URL}/wechat-qr.svg`,
    );
    await dialog.getByLabel('Verification code').fill(await weChatCodeFor(request, openid));
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expectToast(page, 'Login successful!');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    const self = await (await page.request.get('/api/user/self')).json();
    expect(self.data.wechat_id).toBe(openid);
  } finally {
    await setOptions(request, [['WeChatAuthEnabled', 'false']]);
  }
});

test("the register page says when Cloudflare's Turnstile cannot load, and waits for its token", async ({
  page,
  request,
}) => {
  await asRoot(request);
  await setOptions(request, [
    ['TurnstileSiteKey', '1x00000000000000000000AA'],
    ['TurnstileSecretKey', '1x0000000000000000000000000000000AA'],
    ['TurnstileCheckEnabled', 'true'],
  ]);
  try {
    await page.route('https://challenges.cloudflare.com/**', (route) => route.abort('internetdisconnected'));
    await page.goto('/register');
    await expect(page.getByText('Failed to load Turnstile.')).toBeVisible();
    await page.getByLabel('Username').fill(uniqueUsername('ts'));
    await page.getByLabel('Password', { exact: true }).fill('correct-horse');
    await page.getByLabel('Confirm password').fill('correct-horse');
    await page.getByRole('button', { name: 'Register' }).click();
    await expectToast(page, 'Please retry in a few seconds, Turnstile is checking the user environment!');
    await expect(page).toHaveURL(/\/register$/);
  } finally {
    await setOptions(request, [['TurnstileCheckEnabled', 'false']]);
  }
});
