import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startStandInServer, type StandInServer } from '../apps/server/test/support/stand-in-server';
import { createUser, loginViaApi, ROOT } from './helpers';

/**
 * Prices users can see and balances admins can watch: a user finds a model and its prices on the Pricing page
 * (a phone too), root refreshes a DeepSeek channel's balance against a stand-in that speaks DeepSeek's balance
 * answer, and root reads the built-in price table in Operation settings and copies it into the options.
 */
const SHOTS = process.env.E2E_SCREENSHOTS;
const PER_CALL_MODEL = `e2e-agent-${Date.now().toString(36)}`;

let deepSeek: StandInServer;
let yuanBalance = '110.00';

test.beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  // DeepSeek's GET /user/balance (https://api-docs.deepseek.com/api/get-user-balance).
  deepSeek = await startStandInServer((request) => {
    // Also an OpenAI-compatible upstream for the per-call model's channel.
    if (request.path === '/v1/chat/completions') {
      return {
        json: {
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: 1,
          model: PER_CALL_MODEL,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3000, completion_tokens: 1000, total_tokens: 4000 },
        },
      };
    }
    return request.path === '/user/balance'
      ? {
          json: {
            is_available: true,
            balance_infos: [
              {
                currency: 'CNY',
                total_balance: yuanBalance,
                granted_balance: '0.00',
                topped_up_balance: yuanBalance,
              },
            ],
          },
        }
      : { status: 404, json: { error: { message: 'not found' } } };
  });
});
test.afterAll(async () => {
  await deepSeek.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function createChannel(page: Page, fields: Record<string, unknown>): Promise<void> {
  const created = await page.request.post('/api/channel/', { data: { group: 'default', ...fields } });
  const body = (await created.json()) as { success: boolean; message: string };
  expect(body.success, body.message).toBe(true);
}

/** A channel in group default serving gpt-4o and the per-call model, priced $0.05 a call by ModelPrice. */
async function offerModels(page: Page): Promise<void> {
  await createChannel(page, {
    type: 1,
    name: `pricing-${Date.now().toString(36)}`,
    key: 'sk-e2e-upstream',
    base_url: deepSeek.url,
    models: `gpt-4o,${PER_CALL_MODEL}`,
  });
  const priced = await page.request.put('/api/option/', {
    data: { key: 'ModelPrice', value: JSON.stringify({ [PER_CALL_MODEL]: 0.05 }) },
  });
  expect(((await priced.json()) as { success: boolean }).success).toBe(true);
}

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

test('a user finds a model and its prices on the Pricing page, at desktop and at 390 px', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await loginViaApi(page, ROOT);
  await offerModels(page);

  const member = await createUser(page.request, 'price');
  const context = await browser.newContext();
  const userPage = await context.newPage();
  await loginViaApi(userPage, member);
  await userPage.goto('/pricing');
  const search = userPage.getByLabel('Search models ...');
  await search.fill('gpt-4o');
  await search.press('Enter');
  const table = userPage.getByRole('table');
  const gpt = table.getByRole('row').filter({ has: userPage.getByText('gpt-4o', { exact: true }) });
  // gpt-4o: $2.50 in (and cache writes), $10.00 out, $1.25 cache reads per million tokens, group default × 1.
  await expect(gpt.getByText('$2.50', { exact: true }).first()).toBeVisible();
  await expect(gpt.getByText('$1.25', { exact: true })).toBeVisible();
  await expect(gpt.getByText('$10.00', { exact: true })).toBeVisible();
  await search.fill(PER_CALL_MODEL);
  await search.press('Enter');
  await expect(table.getByText('$0.05 per call')).toBeVisible();
  await expect(table.getByText('gpt-4o', { exact: true })).toHaveCount(0);
  await shoot(userPage, 'pricing-1280');

  await userPage.setViewportSize({ width: 390, height: 844 });
  await userPage.goto('/pricing');
  const phoneSearch = userPage.getByLabel('Search models ...');
  await phoneSearch.fill(PER_CALL_MODEL);
  await phoneSearch.press('Enter');
  // The phone shows cards; the desktop table is hidden.
  await expect(userPage.getByText('$0.05 per call').filter({ visible: true })).toBeVisible();
  await phoneSearch.fill('gpt-4o');
  await phoneSearch.press('Enter');
  await expect(userPage.getByText('$10.00', { exact: true }).filter({ visible: true }).first()).toBeVisible();
  // Nothing wider than the phone.
  const width = await userPage.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await shoot(userPage, 'pricing-390');
  await context.close();
});

test('a call to a model priced per call is charged its price, and the log drawer says so', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await loginViaApi(page, ROOT);
  await offerModels(page);
  const suffix = Date.now().toString(36);
  const keyName = `percall-${suffix}`;
  const created = await page.request.post('/api/token/', {
    data: { name: keyName, remain_quota: 0, unlimited_quota: true, expired_time: -1 },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);
  const keys = (await (await page.request.get('/api/token/')).json()) as {
    data: Array<{ name: string; key: string }>;
  };
  const key = keys.data.find((row) => row.name === keyName)?.key;
  const answer = await page.request.post('/v1/chat/completions', {
    headers: { Authorization: `Bearer sk-${key}` },
    data: { model: PER_CALL_MODEL, messages: [{ role: 'user', content: 'Plan my day' }] },
  });
  expect(answer.status()).toBe(200);

  await page.goto('/log');
  const row = page.getByRole('row').filter({ has: page.getByText(keyName, { exact: true }) });
  await row.first().click();
  // $0.05 × 500,000 quota per dollar × group ratio 1 = 25,000 quota = $0.05.
  await expect(page.getByTestId('log-charge-per-call')).toHaveText(
    /^Priced per call: \$0\.05 × group ratio 1, whatever the tokens: \$0\.05\d* charged\.$/,
  );
  // The tokens are still shown, though they did not make the charge.
  await expect(page.getByRole('dialog').getByText('3,000', { exact: true })).toBeVisible();
  await shoot(page, 'log-drawer-per-call-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('log-charge-per-call')).toBeVisible();
  await shoot(page, 'log-drawer-per-call-390');
});

test('root sees the balance column and refreshes a channel balance from its vendor', async ({ page }) => {
  await loginViaApi(page, ROOT);
  const name = `deepseek-${Date.now().toString(36)}`;
  await createChannel(page, {
    type: 36,
    name,
    key: 'sk-e2e-deepseek',
    base_url: deepSeek.url,
    models: 'deepseek-chat',
  });
  await page.goto('/channel');
  await expect(page.getByRole('columnheader', { name: 'Balance' })).toBeVisible();
  const balance = rowOf(page, name).getByRole('button', { name: `Balance (${name})` });
  await balance.click();
  await expect(balance).toHaveText('¥110.00');
  yuanBalance = '42.50';
  await balance.click();
  await expect(balance).toHaveText('¥42.50');
  await page.reload();
  await expect(rowOf(page, name).getByRole('button', { name: `Balance (${name})` })).toHaveText('¥42.50');
  await shoot(page, 'channels-balance-1280');
});

test('root reads the built-in price table in Operation settings and copies it into the options', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await loginViaApi(page, ROOT);
  const storedModelRatio = async () => {
    const answer = (await (await page.request.get('/api/option/')).json()) as {
      data: Array<{ key: string; value: string }>;
    };
    return answer.data.find((entry) => entry.key === 'ModelRatio')?.value;
  };
  const before = await storedModelRatio();
  await page.goto('/setting?tab=operation');
  const section = page.getByTestId('built-in-price-table');
  await expect(section.getByText(/The gateway's own price for \d+ models/)).toBeVisible();
  await expect(page.getByLabel('Completion ratio')).toHaveAttribute(
    'placeholder',
    'Nothing set: the built-in prices below apply',
  );
  await section.getByLabel('Search models ...').fill('claude-sonnet-4-5');
  const claude = section
    .getByRole('row')
    .filter({ has: page.getByText('claude-sonnet-4-5', { exact: true }) });
  // $3 in, $15 out per million tokens; cache reads $0.30, cache writes $3.75.
  await expect(claude.getByText('$15.00', { exact: true })).toBeVisible();
  await expect(claude.getByText('$0.30', { exact: true })).toBeVisible();
  await expect(claude.getByText('built-in', { exact: true })).toBeVisible();
  // Audio priced apart from text: $40 in (16 × $2.50) and $80 out (8 × $10) per million audio tokens.
  await section.getByLabel('Search models ...').fill('gpt-4o-audio-preview');
  const audio = section
    .getByRole('row')
    .filter({ has: page.getByText('gpt-4o-audio-preview', { exact: true }) });
  await expect(audio.getByText(/Audio in \$40\.00/)).toBeVisible();
  await expect(audio.getByText(/Audio out \$80\.00/)).toBeVisible();
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/settings-built-in-audio-1280.png` });
  await section.getByLabel('Search models ...').fill('');
  await shoot(page, 'settings-built-in-1280');
  if (SHOTS) await section.screenshot({ path: `${SHOTS}/settings-built-in-table-1280.png` });

  await section.getByText('Replace what is set').click();
  await expect(section.getByText(/entries for other models are removed/)).toBeVisible();
  await section.getByText('Merge with what is set').click();
  await section.getByRole('button', { name: 'Copy the built-in table into the options' }).click();
  await expect(section.getByText(/was merged into the fields above/)).toBeVisible();
  const modelRatio = JSON.parse(await page.getByLabel('Model ratio').inputValue()) as Record<string, number>;
  expect(modelRatio['claude-sonnet-4-5']).toBe(1.5);
  // Copied, not saved: leaving the page keeps the stored options as they were.
  expect(await storedModelRatio()).toBe(before);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/setting?tab=operation');
  const phoneSection = page.getByTestId('built-in-price-table');
  await phoneSection.getByLabel('Search models ...').fill('claude-sonnet-4-5');
  await expect(
    phoneSection.getByText('$15.00', { exact: true }).filter({ visible: true }).first(),
  ).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await shoot(page, 'settings-built-in-390');
  if (SHOTS) await phoneSection.screenshot({ path: `${SHOTS}/settings-built-in-table-390.png` });
});
