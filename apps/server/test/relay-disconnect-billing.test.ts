import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * A non-streaming client that goes away: billed what the upstream reported when its answer was in, refunded
 * when it was not. The database is held busy by the test to stop the gateway at a known step (SQLite runs
 * one statement at a time), so the client can leave exactly there.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  kit = await startRelayKit();
  upstream = await startOpenAIUpstream('answerer', { usage: { prompt: 30, completion: 70 } });
  await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
afterEach(() => {
  upstream.behaviour = { usage: { prompt: 30, completion: 70 } };
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds the database until the answer is called: every query of the gateway waits meanwhile. */
function holdDatabase(): () => Promise<void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = kit.test.context.db.transaction().execute(async (trx) => {
    await trx.selectFrom('options').select('key').limit(1).execute();
    await released;
  });
  return async () => {
    release();
    await held;
  };
}

/** A chat request the test can abandon, as a client closing its connection does. */
function startCall(key: string) {
  const abort = new AbortController();
  const answer = fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    signal: abort.signal,
  }).catch((error: unknown) => error);
  return { leave: () => abort.abort(), answer };
}

async function caller() {
  const user = await kit.createUser({ quota: 1_000_000 });
  const { key } = await kit.createKey(user.id);
  // One answered call first, so the key is cached and the next call's first query is its reservation.
  await kit
    .client(key)
    .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'warm' }] });
  await kit.settle();
  return { user, key, quotaBefore: await kit.userQuota(user.id) };
}

const consumeLogs = (userId: number) =>
  kit.test.context.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', LogType.consume)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

describe('a non-streaming client that goes away', () => {
  it('after the upstream answered: billed the usage the upstream reported', async () => {
    const { user, key, quotaBefore } = await caller();
    upstream.behaviour = { usage: { prompt: 30, completion: 70 }, delayMs: 100 };
    const calledBefore = upstream.received.length;
    const call = startCall(key);
    await expect.poll(() => upstream.received.length).toBe(calledBefore + 1);
    // The answer comes in while the settlement cannot be written: the gateway holds the answer meanwhile.
    const release = holdDatabase();
    await sleep(400);
    call.leave();
    await call.answer;
    await sleep(100);
    await release();
    await expect
      .poll(async () => {
        await kit.settle();
        return (await consumeLogs(user.id)).length;
      })
      .toBe(2);
    const [, log] = await consumeLogs(user.id);
    expect(log).toMatchObject({ prompt_tokens: 30, completion_tokens: 70 });
    expect(log.quota).toBeGreaterThan(0);
    expect(await kit.userQuota(user.id)).toBe(quotaBefore - log.quota);
  });

  it('while the upstream was still working: everything refunded, the upstream call cancelled', async () => {
    const { user, key, quotaBefore } = await caller();
    upstream.behaviour = { delayMs: 3000 };
    const calledBefore = upstream.received.length;
    const call = startCall(key);
    await expect.poll(() => upstream.received.length).toBe(calledBefore + 1);
    call.leave();
    await call.answer;
    await expect.poll(() => kit.userQuota(user.id)).toBe(quotaBefore);
    await kit.settle();
    expect(await consumeLogs(user.id)).toHaveLength(1);
  });

  it('before the upstream was called: it never is, and everything is refunded', async () => {
    const { user, key, quotaBefore } = await caller();
    const calledBefore = upstream.received.length;
    const release = holdDatabase();
    const call = startCall(key);
    await sleep(300);
    call.leave();
    await call.answer;
    await sleep(100);
    await release();
    await expect.poll(() => kit.userQuota(user.id)).toBe(quotaBefore);
    await sleep(200);
    expect(upstream.received.length).toBe(calledBefore);
    await kit.settle();
    expect(await consumeLogs(user.id)).toHaveLength(1);
  });
});
