import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { startFakeOidc, type FakeOidc } from '../apps/server/test/support/fake-oidc';
import { createUser, expectToast, loginViaApi } from './helpers';
import { asRoot, setOptions } from './support/account-stand-ins';
import { CONSOLE_URL } from './support/stand-in-config';

/**
 * OIDC sign-in against the stand-in identity provider (real discovery, authorisation redirect, token exchange
 * with PKCE, RS256 ID token checked against its JWKS): a visitor signs in from the login page and lands signed
 * in as the account the provider vouched for; a signed-in user binds it in Personal settings. The login page
 * is photographed at 1280 and 390 px when E2E_SCREENSHOTS names a folder.
 */
const SHOTS = process.env.E2E_SCREENSHOTS;
const CLIENT = { id: 'gatehouse-e2e', secret: 'e2e-oidc-secret' };
const suffix = Date.now().toString(36).slice(-5);

let provider: FakeOidc;
let previousServerAddress = '';

async function readOption(request: APIRequestContext, key: string): Promise<string> {
  const body = (await (await request.get('/api/option/')).json()) as {
    data: Array<{ key: string; value: string }>;
  };
  return body.data.find((option) => option.key === key)?.value ?? '';
}

test.beforeAll(async ({ request }) => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  provider = await startFakeOidc(CLIENT.id, CLIENT.secret);
  await asRoot(request);
  previousServerAddress = await readOption(request, 'ServerAddress');
  await setOptions(request, [
    ['ServerAddress', CONSOLE_URL],
    ['OidcDiscoveryURL', provider.discoveryUrl],
    ['OidcClientId', CLIENT.id],
    ['OidcClientSecret', CLIENT.secret],
    ['OidcProviderName', 'Company SSO'],
    ['OidcEnabled', 'true'],
  ]);
});

test.afterAll(async ({ request }) => {
  await asRoot(request);
  await setOptions(request, [
    ['OidcEnabled', 'false'],
    ['ServerAddress', previousServerAddress],
  ]);
  await provider.close();
});

test('a visitor signs in with the OIDC provider and lands signed in as the account it vouched for', async ({
  page,
}) => {
  provider.signInAs({
    sub: `e2e-${suffix}`,
    claims: { preferred_username: `sso${suffix}`, name: 'SSO Person', email: `sso${suffix}@example.test` },
  });
  await page.goto('/login');
  const button = page.getByRole('button', { name: 'Sign in with Company SSO' });
  await expect(button).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/login-oidc-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(button).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/login-oidc-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await button.click();
  await expectToast(page, 'Login successful!');
  await expect(page).toHaveURL(`${CONSOLE_URL}/`);
  const self = (await (await page.request.get('/api/user/self')).json()) as {
    data: { username: string; display_name: string; email: string; oidc_id: string };
  };
  expect(self.data).toMatchObject({
    username: `sso${suffix}`,
    display_name: 'SSO Person',
    email: `sso${suffix}@example.test`,
    oidc_id: `${provider.url} e2e-${suffix}`,
  });
});

test('a signed-in user binds the OIDC account in Personal settings', async ({ page, request }) => {
  const person = await createUser(request, 'oidc');
  await loginViaApi(page, person);
  provider.signInAs({ sub: `bind-${suffix}`, claims: { preferred_username: 'someone' } });
  await page.goto('/setting');
  await page.getByRole('button', { name: 'Bind Company SSO account' }).click();
  await expectToast(page, 'OIDC account bound successfully!');
  await expect(page).toHaveURL(/\/setting$/);
  await expect(page.getByLabel('Company SSO account (issuer and subject)')).toHaveValue(
    `${provider.url} bind-${suffix}`,
  );
});
