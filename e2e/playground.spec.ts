import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startOpenAIUpstream, type OpenAIUpstream } from '../apps/server/test/support/openai-upstream';
import { createUser, loginViaApi, ROOT } from './helpers';

/**
 * A user tries a model in the Playground with one of their keys: the relay refuses while the balance is empty,
 * then streams an answer word by word once root tops the user up; the page shows the usage and the charge the
 * usage log holds for that request, continues the conversation, stops an answer, copies the request as code,
 * and fits a 390 px phone, light and dark.
 */
const SHOTS = process.env.E2E_SCREENSHOTS;
const suffix = Date.now().toString(36);
const MODEL = `e2e-play-${suffix}`;
const KEY_NAME = `play-${suffix}`;

let upstream: OpenAIUpstream;

test.beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  upstream = await startOpenAIUpstream('play', {
    words: ['Hello', ' from', ' the', ' stand-in'],
    chunkDelayMs: 300,
    usage: { prompt: 1200, completion: 800 },
  });
});
test.afterAll(async () => {
  await upstream.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function succeed(response: { json(): Promise<unknown> }): Promise<unknown> {
  const body = (await response.json()) as { success: boolean; message: string; data: unknown };
  expect(body.success, body.message).toBe(true);
  return body.data;
}

/** Root: a channel of the stand-in serving the model at ratio 1 (added to the ratios other journeys set). */
async function offerModel(root: APIRequestContext): Promise<void> {
  const options = (await succeed(await root.get('/api/option/'))) as Array<{ key: string; value: string }>;
  const ratios = JSON.parse(options.find((option) => option.key === 'ModelRatio')?.value || '{}') as object;
  await succeed(
    await root.put('/api/option/', {
      data: { key: 'ModelRatio', value: JSON.stringify({ ...ratios, [MODEL]: 1 }) },
    }),
  );
  await succeed(
    await root.post('/api/channel/', {
      data: {
        type: 1,
        name: `playground ${suffix}`,
        key: 'sk-e2e-upstream',
        base_url: upstream.url,
        models: MODEL,
        group: 'default',
      },
    }),
  );
}

async function topUp(root: APIRequestContext, username: string): Promise<void> {
  const [user] = (await succeed(await root.get(`/api/user/search?keyword=${username}`))) as Array<{
    id: number;
  }>;
  await succeed(await root.put('/api/user/', { data: { id: user!.id, quota: 5_000_000 } }));
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('a user chats in the Playground and sees each answer’s usage and billed charge', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // The page calls the relay from the browser: the console's Content-Security-Policy must allow it.
  const cspReports: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspReports.push(message.text());
  });
  const rootContext = await browser.newContext();
  const rootPage = await rootContext.newPage();
  await loginViaApi(rootPage, ROOT);
  await offerModel(rootPage.request);

  const member = await createUser(page.request, 'play');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await loginViaApi(page, member);
  await succeed(
    await page.request.post('/api/token/', {
      // Limited to the stand-in's model: other specs of the run offer more models to the default group.
      data: { name: KEY_NAME, remain_quota: 0, unlimited_quota: true, expired_time: -1, models: MODEL },
    }),
  );

  await page.goto('/');
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expect(page.getByRole('heading', { name: 'Playground' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'API key' })).toHaveValue(KEY_NAME);
  await expect(page.getByRole('textbox', { name: 'Model' })).toHaveValue(MODEL);
  const conversation = page.getByRole('log', { name: 'Conversation' });

  // A new user has no balance: the relay's refusal is shown as such.
  await send(page, 'Anyone there?');
  const refusal = conversation.getByRole('alert');
  await expect(refusal).toContainText('Not enough quota');
  await expect(refusal).toContainText('HTTP 429');
  await expect(refusal).toContainText(/balance .* is not enough/);
  await shoot(page, 'playground-refusal');

  await topUp(rootPage.request, member.username);
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('System prompt').fill('Answer in four words.');
  await send(page, 'Say hello');
  // Streamed: the first words are on screen while the answer is still being written.
  await expect(conversation.getByText('Hello', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(conversation.getByText('Hello from the stand-in')).toBeVisible();
  await expect(conversation.getByText('Tokens: 1,200 prompt · 800 completion · 2,000 total')).toBeVisible();

  // The charge shown is the usage log's entry for that request.
  const requestId = ((await conversation.getByText(/^Request ID: /).textContent()) ?? '').replace(
    'Request ID: ',
    '',
  );
  const [entry] = (await succeed(
    await page.request.get(`/api/log/self/?request_id=${encodeURIComponent(requestId)}`),
  )) as Array<{ quota: number; model_name: string }>;
  expect(entry).toMatchObject({ model_name: MODEL });
  expect(entry!.quota).toBeGreaterThan(0);
  await expect(conversation.getByTestId('playground-charge')).toHaveText(
    `Charge: $${(entry!.quota / 500_000).toFixed(6)}`,
  );
  const sent = upstream.received.at(-1)?.json as { messages: unknown[]; stream: boolean };
  expect(sent.stream).toBe(true);
  expect(sent.messages).toEqual([
    { role: 'system', content: 'Answer in four words.' },
    { role: 'user', content: 'Say hello' },
  ]);
  await shoot(page, 'playground-desktop-light');

  // The next question carries the conversation so far; Stop ends an answer where it is.
  upstream.behaviour.chunkDelayMs = 1500;
  await send(page, 'Again, slowly');
  await expect(conversation.getByText('Hello', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(conversation.getByText('Stopped')).toBeVisible();
  upstream.behaviour.chunkDelayMs = 300;
  expect((upstream.received.at(-1)?.json as { messages: unknown[] }).messages).toHaveLength(4);

  await page.getByRole('button', { name: 'Copy as' }).click();
  await page.getByRole('menuitem', { name: 'Python (openai)' }).click();
  const python = await page.evaluate(() => navigator.clipboard.readText());
  expect(python).toContain(`OpenAI(base_url="${baseURL}/v1", api_key="sk-`);
  expect(python).toContain(`model="${MODEL}"`);
  expect(python).toContain('stream=True');
  expect(python).toContain('"content": "Answer in four words."');

  await page.evaluate(() => localStorage.setItem('gatehouse-color-scheme', 'dark'));
  await page.reload();
  await send(page, 'Say hello');
  await expect(conversation.getByTestId('playground-charge')).toHaveText(/^Charge: \$0\.\d{6}$/);
  await shoot(page, 'playground-desktop-dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shoot(page, 'playground-390-dark');
  await page.evaluate(() => localStorage.setItem('gatehouse-color-scheme', 'light'));
  await page.reload();
  await send(page, 'Say hello');
  await expect(conversation.getByText('Hello from the stand-in')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shoot(page, 'playground-390-light');
  expect(cspReports).toEqual([]);
  await rootContext.close();
});
