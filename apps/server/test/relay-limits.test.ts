import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelLimits } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { readLedger } from './support/ledger';

/**
 * Limits on keys and users through the real relay with the official SDK: exactly N admitted, the rest 429 with
 * Retry-After and OpenAI's x-ratelimit headers, and nothing charged for a refusal.
 */

/** An OpenAI stand-in that answers after `delayMs` and records how many requests it held at once. */
interface SlowUpstream {
  url: string;
  delayMs: number;
  inFlight: number;
  maxInFlight: number;
  /** answer this status instead of a completion */
  failWith: number | null;
  close(): Promise<void>;
}

async function startSlowUpstream(): Promise<SlowUpstream> {
  const upstream: SlowUpstream = {
    url: '',
    delayMs: 200,
    inFlight: 0,
    maxInFlight: 0,
    failWith: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      upstream.inFlight += 1;
      upstream.maxInFlight = Math.max(upstream.maxInFlight, upstream.inFlight);
      setTimeout(() => {
        upstream.inFlight -= 1;
        if (upstream.failWith !== null) {
          response.writeHead(upstream.failWith, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({ error: { message: 'upstream trouble', type: 'server_error', code: null } }),
          );
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-slow',
            object: 'chat.completion',
            created: 1,
            model: 'gpt-4o-mini',
            choices: [
              { index: 0, message: { role: 'assistant', content: 'slow hello' }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
      }, upstream.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

let kit: RelayKit;
let upstream: OpenAIUpstream;
let slow: SlowUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('limits', { usage: { prompt: 10, completion: 10 } });
  slow = await startSlowUpstream();
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o,gpt-4o-mini' });
  await kit.createChannel({ baseUrl: slow.url, models: 'o1-mini' });
  // No PreConsumedQuota: reservations are prompt + max_tokens × completion ratio, so budgets are easy to reason about.
  await kit.test.context.options.set('PreConsumedQuota', '0');
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
  await slow.close();
});

// RPM and TPM count in clock-aligned minutes: a test that starts just before a boundary waits for the next one.
beforeEach(async () => {
  const remainingMs = 60_000 - (Date.now() % 60_000);
  if (remainingMs < 5000) await new Promise((resolve) => setTimeout(resolve, remainingMs + 50));
});

interface Limits {
  rpm_limit?: number;
  tpm_limit?: number;
  max_parallel_requests?: number;
  budget?: number;
  budget_period?: string;
}

async function limitKey(tokenId: number, limits: Limits & { model_limits?: ModelLimits }) {
  const { model_limits: modelLimits, ...rest } = limits;
  await kit.test.context.db
    .updateTable('tokens')
    .set({ ...rest, ...(modelLimits ? { model_limits: JSON.stringify(modelLimits) } : {}) })
    .where('id', '=', tokenId)
    .execute();
}

async function limitUser(userId: number, limits: Limits) {
  await kit.test.context.db.updateTable('users').set(limits).where('id', '=', userId).execute();
}

const ask = (key: string, model = 'gpt-4o', maxTokens?: number) =>
  fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      messages: [{ role: 'user', content: 'hi' }],
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
    }),
  });

async function ledgerOf(userId: number, tokenId: number) {
  await kit.settle();
  return readLedger(kit.test.context.db, userId, tokenId);
}

describe('requests per minute', () => {
  it('admits exactly 10 of 40 parallel SDK requests; the rest get 429, Retry-After and the headers, uncharged', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { id, key } = await kit.createKey(user.id);
    await limitKey(id, { rpm_limit: 10 });
    const client = kit.client(key);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        client.chat.completions
          .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
          .withResponse(),
      ),
    );
    const admitted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(30);
    for (const error of refused) {
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      const rateLimitError = error as InstanceType<typeof OpenAI.RateLimitError>;
      expect(rateLimitError.code).toBe('rate_limit_exceeded');
      expect(rateLimitError.message).toMatch(/This API key's limit of 10 requests per minute is reached/);
      const retryAfter = Number(rateLimitError.headers?.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(rateLimitError.headers?.get('x-ratelimit-limit-requests')).toBe('10');
      expect(rateLimitError.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(rateLimitError.headers?.get('x-ratelimit-reset-requests')).toMatch(/^(\d+m)?\d+s$/);
    }
    // Every admitted answer carries the trio; together they count down 9 … 0.
    const remaining = admitted.map((outcome) =>
      outcome.status === 'fulfilled'
        ? Number(outcome.value.response.headers.get('x-ratelimit-remaining-requests'))
        : -1,
    );
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // (10 + 10 × 4) × 1.25 = 62.5 → 63 per admitted request; nothing for the 30 refusals.
    expect(await ledgerOf(user.id, id)).toEqual({ userUsed: 630, tokenUsed: 630, logged: 630, logs: 10 });
  });

  it("counts the owner's limit across all their keys", async () => {
    const user = await kit.createUser();
    await limitUser(user.id, { rpm_limit: 3 });
    const first = await kit.createKey(user.id);
    const second = await kit.createKey(user.id);
    const statuses = [];
    for (const key of [first.key, second.key, first.key, second.key]) statuses.push((await ask(key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refusal = await ask(first.key);
    expect(((await refusal.json()) as { error: { message: string } }).error.message).toMatch(
      /Your account's limit of 3 requests per minute is reached/,
    );
  });

  it('applies a per-model override on its own counter, leaving the key’s other models alone', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id);
    await limitKey(id, { model_limits: { 'gpt-4o': { rpm_limit: 2 } } });
    expect([(await ask(key)).status, (await ask(key)).status, (await ask(key)).status]).toEqual([
      200, 200, 429,
    ]);
    const other = await ask(key, 'gpt-4o-mini');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('answers an Anthropic client in its own error shape', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id);
    await limitKey(id, { rpm_limit: 1 });
    const send = () =>
      fetch(`${kit.gatewayUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4o',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
    expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('parallel requests', () => {
  it('never holds more than max_parallel_requests upstream, and frees slots after answers and failures', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id);
    await limitKey(id, { max_parallel_requests: 3 });
    slow.maxInFlight = 0;
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () => ask(key, 'o1-mini').then((r) => r.status)),
    );
    expect(slow.maxInFlight).toBe(3);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    // The upstream fails: the slots come back all the same.
    slow.failWith = 400;
    try {
      const failed = await Promise.all(
        Array.from({ length: 3 }, () => ask(key, 'o1-mini').then((r) => r.status)),
      );
      expect(failed).toEqual([400, 400, 400]);
    } finally {
      slow.failWith = null;
    }
    // A client that goes away mid-request gives its slot back too.
    const gone = new AbortController();
    const abandoned = fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      signal: gone.signal,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'o1-mini', messages: [{ role: 'user', content: 'hi' }] }),
    }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    gone.abort();
    await abandoned;
    await new Promise((resolve) => setTimeout(resolve, 300));
    slow.maxInFlight = 0;
    const again = await Promise.all(
      Array.from({ length: 3 }, () => ask(key, 'o1-mini').then((r) => r.status)),
    );
    expect(again).toEqual([200, 200, 200]);
  });
});

describe('tokens per minute', () => {
  it('counts the estimate while a request runs and the settled usage afterwards', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id);
    await limitKey(id, { tpm_limit: 1000 });
    // ~8 prompt tokens + 300 × 4 (gpt-4o's completion ratio) > 1000: never admissible, and said so.
    const tooBig = await ask(key, 'gpt-4o', 300);
    expect(tooBig.status).toBe(429);
    expect(tooBig.headers.get('x-should-retry')).toBe('false');
    expect(((await tooBig.json()) as { error: { message: string } }).error.message).toMatch(
      /more than this api key's limit of 1000 tokens per minute/,
    );
    // ~408 estimated, settled at 20: the counter holds 20, so two more ~408s fit (20 + 408 + 408 ≤ 1000) …
    const first = await ask(key, 'gpt-4o', 100);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    expect(Number(first.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(600);
    expect((await ask(key, 'gpt-4o', 100)).status).toBe(200);
    const settled = await ask(key, 'gpt-4o', 100);
    expect(settled.status).toBe(200);
    expect(Number(settled.headers.get('x-ratelimit-remaining-tokens'))).toBeGreaterThan(500);
  });

  it('refuses while running requests hold their estimates, with Retry-After and the tokens trio', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id);
    await limitKey(id, { tpm_limit: 1000 });
    // o1-mini's completion ratio is 4 as well: 2 × ~408 running, the third does not fit until one settles.
    const running = [ask(key, 'o1-mini', 100), ask(key, 'o1-mini', 100)];
    await new Promise((resolve) => setTimeout(resolve, 80));
    const refused = await ask(key, 'o1-mini', 100);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
    expect((await Promise.all(running)).map((response) => response.status)).toEqual([200, 200]);
    expect((await ask(key, 'o1-mini', 100)).status).toBe(200);
  });
});

describe('budgets', () => {
  it('stops spending at the budget of the period and never charges a refusal', async () => {
    const user = await kit.createUser();
    const { id, key } = await kit.createKey(user.id);
    // Each request reserves ~(8 + 10 × 4) × 1.25 ≈ 60 and costs 63: two fit in 150, the third does not.
    await limitKey(id, { budget: 150, budget_period: 'daily' });
    expect((await ask(key, 'gpt-4o', 10)).status).toBe(200);
    expect((await ask(key, 'gpt-4o', 10)).status).toBe(200);
    const refused = await ask(key, 'gpt-4o', 10);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('budget_exceeded');
    expect(body.error.message).toMatch(/This API key's budget of .* for this period is spent/);
    const midnight = new Date();
    midnight.setHours(24, 0, 0, 0);
    const untilMidnight = (midnight.getTime() - Date.now()) / 1000;
    expect(Math.abs(Number(refused.headers.get('retry-after')) - untilMidnight)).toBeLessThan(5);
    expect(await ledgerOf(user.id, id)).toEqual({ userUsed: 126, tokenUsed: 126, logged: 126, logs: 2 });
  });

  it("holds the owner's budget across their keys", async () => {
    const user = await kit.createUser();
    await limitUser(user.id, { budget: 100, budget_period: 'monthly' });
    const first = await kit.createKey(user.id);
    const second = await kit.createKey(user.id);
    expect((await ask(first.key, 'gpt-4o', 10)).status).toBe(200);
    const refused = await ask(second.key, 'gpt-4o', 10);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /Your account's budget/,
    );
  });
});

describe('Redis unreachable', () => {
  it('keeps serving with limits counted by the node, and says so in /api/status', async () => {
    // Nothing listens on port 9.
    const degraded = await startRelayKit({ REDIS_CONN_STRING: 'redis://127.0.0.1:9' });
    try {
      await degraded.createChannel({ upstream, models: 'gpt-4o' });
      const user = await degraded.createUser();
      const { id, key } = await degraded.createKey(user.id);
      await degraded.test.context.db
        .updateTable('tokens')
        .set({ rpm_limit: 2 })
        .where('id', '=', id)
        .execute();
      const ask = () =>
        fetch(`${degraded.gatewayUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        }).then((response) => response.status);
      expect([await ask(), await ask(), await ask()]).toEqual([200, 200, 429]);
      const status = await fetch(`${degraded.gatewayUrl}/api/status`).then(
        (response) => response.json() as Promise<{ data: { limits_degraded: boolean } }>,
      );
      expect(status.data.limits_degraded).toBe(true);
    } finally {
      await degraded.close();
    }
  });
});
