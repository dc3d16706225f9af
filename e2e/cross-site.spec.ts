import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { createUser, expectToast, loginViaApi, ROOT } from './helpers';
import { asRoot, mailOptions, nextMailTo, setOptions } from './support/account-stand-ins';
import { CONSOLE_URL } from './support/stand-in-config';

// An attacker's site beside the console: 127.0.0.2 is loopback too, but another site than 127.0.0.1 for the
// browser, so the session cookie (SameSite=Lax) rides top-level navigations from it, as from any other site.
// The same server stands in for the upstream of a channel, counting the calls a channel test makes.

const REFUSAL =
  'Refused: this request came from another site. Open the console at its own address and try again.';

let attacker: Server;
let attackerUrl = '';
let upstreamCalls = 0;

function send(response: ServerResponse, type: string, body: string): void {
  response.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
  response.end(body);
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', attackerUrl);
  const target = JSON.stringify(`${CONSOLE_URL}${url.searchParams.get('to') ?? '/'}`);
  if (url.pathname === '/navigate') {
    // What the lure does once a signed-in user opens it: send the whole window to the console's URL.
    return send(
      response,
      'text/html',
      `<!doctype html><title>Win a prize</title><script>location.href = ${target};</script>`,
    );
  }
  if (url.pathname === '/post') {
    const fields = [...new URLSearchParams(url.searchParams.get('fields') ?? '')]
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
      .join('');
    return send(
      response,
      'text/html',
      `<!doctype html><title>Win a prize</title><form method="post" action=${target}>${fields}</form>
<script>document.forms[0].submit();</script>`,
    );
  }
  if (url.pathname === '/v1/chat/completions') {
    upstreamCalls += 1;
    request.resume();
    return send(
      response,
      'application/json',
      JSON.stringify({
        id: 'chatcmpl-e2e',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }
  response.writeHead(404).end();
}

test.beforeAll(async () => {
  attacker = createServer(handle);
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.2', resolve));
  attackerUrl = `http://127.0.0.2:${(attacker.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

/** Opens the attacker's page, which navigates the window to `path` on the console; answers the console's reply. */
async function lure(page: Page, path: string, kind: 'navigate' | 'post' = 'navigate', fields = '') {
  const reply = page.waitForResponse((response) =>
    response.url().startsWith(`${CONSOLE_URL}${path.split('?')[0]}`),
  );
  await page.goto(
    `${attackerUrl}/${kind}?to=${encodeURIComponent(path)}&fields=${encodeURIComponent(fields)}`,
  );
  const response = await reply;
  expect((await response.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
  expect(response.status()).toBe(403);
  await expect(page.locator('body')).toContainText(REFUSAL);
}

/** The signed-in user as the server sees it, through the page's own cookie. */
async function self(page: Page): Promise<{ username: string; email: string }> {
  const body = (await (await page.request.get('/api/user/self')).json()) as {
    data: { username: string; email: string };
  };
  return body.data;
}

/** Who an access token signs in as, asked the way a script would: no cookie, no browser headers. */
async function ownerOfAccessToken(token: string): Promise<string | null> {
  const response = await fetch(`${CONSOLE_URL}/api/user/self`, { headers: { Authorization: token } });
  if (response.status !== 200) return null;
  return ((await response.json()) as { data: { username: string } }).data.username;
}

test('a page on another site cannot bind its e-mail to the signed-in user; the console still binds', async ({
  page,
  request,
}) => {
  await asRoot(request);
  await setOptions(request, await mailOptions(request));
  const member = await createUser(request, 'xsb');
  await loginViaApi(page, member);

  // The attacker asks for a code for an address of theirs, then lures the member to the bind URL with it.
  const attackerEmail = `thief-${Date.now()}@evil.test`;
  expect(
    (await (await request.get('/api/verification', { params: { email: attackerEmail } })).json()).success,
  ).toBe(true);
  const attackerCode = /verification code is: (\S+)/.exec(
    (await nextMailTo(request, attackerEmail)).text,
  )?.[1];
  expect(attackerCode).toBeTruthy();
  await lure(page, `/api/oauth/email/bind?email=${encodeURIComponent(attackerEmail)}&code=${attackerCode}`);
  expect((await self(page)).email).toBe('');

  // The console's own bind dialog still works, in the same session.
  const email = `${member.username}@example.test`;
  await page.goto('/setting');
  await page.getByRole('button', { name: 'Bind email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bind email address' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Get code' }).click();
  await expectToast(page, 'Verification code sent successfully, please check your mailbox!');
  const code = /verification code is: (\S+)/.exec((await nextMailTo(request, email)).text)?.[1];
  await dialog.getByLabel('Verification code').fill(code ?? '');
  await dialog.getByRole('button', { name: 'Bind' }).click();
  await expectToast(page, 'Email account bound successfully!');
  expect((await self(page)).email).toBe(email);
});

test('a page on another site cannot rotate the access token, log the user out or log in; the console resets the token', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const member = await createUser(request, 'xst');
  await loginViaApi(page, member);
  await page.goto('/setting');
  await page.getByRole('button', { name: 'Generate system access token' }).click();
  await expectToast(page, 'Token reset and copied to clipboard');
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(await ownerOfAccessToken(token)).toBe(member.username);

  await lure(page, '/api/user/token');
  expect(await ownerOfAccessToken(token)).toBe(member.username);
  await lure(page, '/api/user/logout');
  expect((await self(page)).username).toBe(member.username);
  // A form posted from the other site (login CSRF: signing the victim in to the attacker's account).
  const intruder = await createUser(request, 'xsi');
  await lure(page, '/api/user/login', 'post', new URLSearchParams({ ...intruder }).toString());
  expect((await self(page)).username).toBe(member.username);

  // The console's own reset: a new token works, the old one no longer does.
  await page.goto('/setting');
  await page.getByRole('button', { name: 'Generate system access token' }).click();
  await expectToast(page, 'Token reset and copied to clipboard');
  const fresh = await page.evaluate(() => navigator.clipboard.readText());
  expect(fresh).not.toBe(token);
  expect(await ownerOfAccessToken(fresh)).toBe(member.username);
  expect(await ownerOfAccessToken(token)).toBeNull();
});

test('a page on another site cannot start channel tests (paid upstream calls); the console can', async ({
  page,
}) => {
  await loginViaApi(page, ROOT);
  const name = `xs-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/channel/', {
    data: {
      type: 1,
      name,
      key: 'sk-e2e-upstream',
      base_url: attackerUrl,
      models: 'gpt-4o-mini',
      group: 'default',
    },
  });
  expect((await created.json()).success).toBe(true);
  const found = (await (
    await page.request.get('/api/channel/search', { params: { keyword: name } })
  ).json()) as {
    data: Array<{ id: number; name: string }>;
  };
  const id = found.data.find((channel) => channel.name === name)?.id;
  expect(id).toBeDefined();
  try {
    upstreamCalls = 0;
    await lure(page, `/api/channel/test/${id}`);
    await lure(page, '/api/channel/test?scope=all');
    await page.waitForTimeout(500);
    expect(upstreamCalls).toBe(0);

    await page.goto('/channel');
    const row = page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
    await row.getByRole('button', { name: 'Test', exact: true }).click();
    await expectToast(page, `channel ${name} test succeeded`);
    expect(upstreamCalls).toBe(1);
  } finally {
    await page.request.delete(`/api/channel/${id}`);
  }
});
