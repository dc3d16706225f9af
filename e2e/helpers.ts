import { expect, type APIRequestContext, type Page } from '@playwright/test';

export interface Credentials {
  username: string;
  password: string;
}

/** Created on first start (root / 123456, see the README's quick start). Never change its password in a journey: every run shares it. */
export const ROOT: Credentials = { username: 'root', password: '123456' };

let counter = 0;

/** A username no other run or test has used, within the 12-character limit. */
export function uniqueUsername(prefix = 'e2e'): string {
  counter += 1;
  const suffix = `${Date.now().toString(36).slice(-5)}${counter.toString(36)}${Math.random().toString(36).slice(2, 4)}`;
  return `${prefix}${suffix}`.slice(0, 12);
}

/** Registers a fresh ordinary user through the API and returns its credentials. */
export async function createUser(request: APIRequestContext, prefix?: string): Promise<Credentials> {
  const credentials = { username: uniqueUsername(prefix), password: `pw-${Date.now()}` };
  const response = await request.post('/api/user/register?turnstile=', {
    data: { ...credentials, password2: credentials.password, email: '', verification_code: '', aff_code: '' },
  });
  const body = (await response.json()) as { success: boolean; message: string };
  expect(body.success, body.message).toBe(true);
  return credentials;
}

/** Logs in through the login form, as a person would; ends on the page the console goes to next. */
export async function loginViaUi(page: Page, { username, password }: Credentials): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expectToast(page, 'Login successful!');
}

/**
 * Logs in without the form: the session cookie through the API (shared with the page), the stored user in
 * localStorage as the login page would leave it. Use it when the login itself is not what the journey tests.
 */
export async function loginViaApi(page: Page, { username, password }: Credentials): Promise<void> {
  const response = await page.request.post('/api/user/login', { data: { username, password } });
  const body = (await response.json()) as { success: boolean; message: string; data: unknown };
  expect(body.success, body.message).toBe(true);
  await page.goto('/');
  await page.evaluate((user) => localStorage.setItem('user', JSON.stringify(user)), body.data);
}

/** A toast (Mantine notification) with this text is on screen. */
export async function expectToast(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: text }).first()).toBeVisible();
}
