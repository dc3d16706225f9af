import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIUpstream, type OpenAIUpstream } from '../apps/server/test/support/openai-upstream';
import { createUser, loginViaApi, ROOT } from './helpers';

/**
 * The signed-in home is the usage dashboard: after a few relayed requests (JSON, streamed, one that fails)
 * root sees them charted with the channels' error rates, at desktop and 390 px, without a CSP violation; a
 * new user sees only their own (nothing yet) and the empty state.
 */
const SHOTS = process.env.E2E_SCREENSHOTS;
const suffix = Date.now().toString(36);
const OK_MODEL = `e2e-dash-ok-${suffix}`;
const DOWN_MODEL = `e2e-dash-down-${suffix}`;

let good: OpenAIUpstream;
let broken: OpenAIUpstream;

test.beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  good = await startOpenAIUpstream('dash', { usage: { prompt: 1200, completion: 800 } });
  broken = await startOpenAIUpstream('dash-down', {
    error: { status: 500, message: 'down for maintenance' },
  });
});
test.afterAll(async () => {
  await good.close();
  await broken.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function succeed(response: { json(): Promise<unknown> }): Promise<void> {
  const body = (await response.json()) as { success: boolean; message: string };
  expect(body.success, body.message).toBe(true);
}

/** Records Content-Security-Policy violations from the page's first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) reported.push(message.text());
  });
  await page.addInitScript(() => {
    const store = window as unknown as { cspViolations: string[] };
    store.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      store.cspViolations.push(
        `${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  return async () => [
    ...reported,
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
  ];
}

test('root sees relayed requests charted on the home page, at desktop and 390 px', async ({ page }) => {
  const violations = await watchViolations(page);
  await loginViaApi(page, ROOT);
  await succeed(
    await page.request.put('/api/option/', {
      data: { key: 'ModelRatio', value: JSON.stringify({ [OK_MODEL]: 1, [DOWN_MODEL]: 1 }) },
    }),
  );
  for (const [name, upstream, model] of [
    [`dash ok ${suffix}`, good, OK_MODEL],
    [`dash down ${suffix}`, broken, DOWN_MODEL],
  ] as const) {
    await succeed(
      await page.request.post('/api/channel/', {
        data: {
          type: 1,
          name,
          key: 'sk-e2e-upstream',
          base_url: upstream.url,
          models: model,
          group: 'default',
        },
      }),
    );
  }
  await succeed(
    await page.request.post('/api/token/', {
      data: { name: `dash-${suffix}`, remain_quota: 0, unlimited_quota: true, expired_time: -1 },
    }),
  );
  const keys = (await (await page.request.get('/api/token/')).json()) as {
    data: Array<{ name: string; key: string }>;
  };
  const key = keys.data.find((row) => row.name === `dash-${suffix}`)?.key;
  expect(key).toBeTruthy();
  const relay = (model: string, stream = false) =>
    page.request.post('/v1/chat/completions', {
      headers: { Authorization: `Bearer sk-${key}` },
      data: { model, stream, messages: [{ role: 'user', content: 'hi' }] },
    });
  expect((await relay(OK_MODEL)).status()).toBe(200);
  expect((await relay(OK_MODEL)).status()).toBe(200);
  const streamed = await relay(OK_MODEL, true);
  expect(streamed.status()).toBe(200);
  expect(await streamed.text()).toContain('[DONE]');
  expect((await relay(DOWN_MODEL)).status()).toBeGreaterThanOrEqual(500);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // Three answered and one failed request of this key: 25% of root's requests failed at least once here.
  await expect(page.getByText('Spend over time')).toBeVisible();
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  expect(await page.locator('.recharts-surface').count()).toBeGreaterThanOrEqual(3);
  await expect(page.getByText(OK_MODEL).first()).toBeVisible();
  await expect(page.getByText(`dash-${suffix}`).first()).toBeVisible();
  const health = page.getByRole('row').filter({ hasText: `dash down ${suffix}` });
  await expect(health).toContainText('100%');
  await expect(page.getByRole('row').filter({ hasText: `dash ok ${suffix}` })).toContainText('0%');
  await page.waitForLoadState('networkidle');
  await shoot(page, 'dashboard-desktop');

  await page.getByText('By day', { exact: true }).click();
  await expect(page).toHaveURL(/granularity=day/);
  await page.getByText('7 days').click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByText(OK_MODEL).first()).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?range=24h&granularity=hour&scope=all');
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `dash down ${suffix}` })).toContainText('100%');
  // Nothing spills sideways on a phone: the channel table scrolls inside its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.waitForLoadState('networkidle');
  await shoot(page, 'dashboard-390');
  expect(await violations()).toEqual([]);
});

test('a new user sees only their own usage: none yet, so the empty state and no channels', async ({
  page,
  request,
}) => {
  await loginViaApi(page, await createUser(request, 'dash'));
  await page.goto('/?scope=all');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('No requests in this range yet')).toBeVisible();
  await expect(page.getByText('Channels: errors and latency')).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Everyone' })).toHaveCount(0);
  await shoot(page, 'dashboard-empty');
});
