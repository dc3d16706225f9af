import { expect, type APIRequestContext } from '@playwright/test';
import { ROOT } from '../helpers';
import { E2E_GITHUB_APP, E2E_SMTP_LOGIN, E2E_WECHAT_SERVER_TOKEN, STAND_IN_URL } from './stand-in-config';

export interface Mail {
  subject: string;
  text: string;
}

/** The next mail the catcher received for this address (waits up to 5 s). */
export async function nextMailTo(request: APIRequestContext, address: string): Promise<Mail> {
  const response = await request.get(`${STAND_IN_URL}/control/mail`, { params: { to: address } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Mail;
}

/** Who is signed in at the fake GitHub when the browser reaches its authorise page. */
export async function signInAtGitHub(
  request: APIRequestContext,
  user: { id: number; login: string; name: string },
): Promise<void> {
  const response = await request.put(`${STAND_IN_URL}/control/github-session`, { data: user });
  expect(response.status()).toBe(204);
}

/** `request` logged in as root, for the options a journey needs. */
export async function asRoot(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/user/login', { data: ROOT });
  expect((await response.json()).success).toBe(true);
}

/** Saves options as root through the real settings API, in order (switches after the values they need). */
export async function setOptions(
  request: APIRequestContext,
  options: Array<[string, string]>,
): Promise<void> {
  for (const [key, value] of options) {
    const response = await request.put('/api/option/', { data: { key, value } });
    const body = (await response.json()) as { success: boolean; message: string };
    expect(body.success, `${key}: ${body.message}`).toBe(true);
  }
}

/** Points the gateway's mail sending at the catcher. */
export async function mailOptions(request: APIRequestContext): Promise<Array<[string, string]>> {
  const { port } = (await (await request.get(`${STAND_IN_URL}/control/smtp`)).json()) as { port: number };
  return [
    ['SMTPServer', '127.0.0.1'],
    ['SMTPPort', String(port)],
    ['SMTPAccount', E2E_SMTP_LOGIN.account],
    ['SMTPToken', E2E_SMTP_LOGIN.password],
    ['SMTPFrom', 'noreply@gatehouse.test'],
  ];
}

export const gitHubOptions: Array<[string, string]> = [
  ['GitHubClientId', E2E_GITHUB_APP.clientId],
  ['GitHubClientSecret', E2E_GITHUB_APP.clientSecret],
  ['GitHubOAuthEnabled', 'true'],
];

/** Points WeChat login at the WeChat server stand-in and shows its QR code. */
export async function weChatOptions(request: APIRequestContext): Promise<Array<[string, string]>> {
  const { url } = (await (await request.get(`${STAND_IN_URL}/control/wechat`)).json()) as { url: string };
  return [
    ['WeChatServerAddress', url],
    ['WeChatServerToken', E2E_WECHAT_SERVER_TOKEN],
    ['WeChatAccountQRCodeImageURL', `${STAND_IN_URL}/wechat-qr.svg`],
    ['WeChatAuthEnabled', 'true'],
  ];
}

/** The code the official account would reply to this WeChat user with. */
export async function weChatCodeFor(request: APIRequestContext, openid: string): Promise<string> {
  const response = await request.get(`${STAND_IN_URL}/control/wechat-code`, { params: { openid } });
  return ((await response.json()) as { code: string }).code;
}
