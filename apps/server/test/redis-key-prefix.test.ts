import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { isListening } from './support/external-databases';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * Two deployments on one Redis, each with its own database (so both number their first key 1, and their limit
 * counters would have the same names) and its own REDIS_KEY_PREFIX: neither counts the other's requests, and
 * every key in Redis carries one of the two prefixes. Redis database 7 is this file's alone, emptied first.
 */
const REDIS_URL = 'redis://127.0.0.1:6379/7';
const isRedisUp = await isListening(6379);

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const ask = (kit: RelayKit, key: string) =>
  fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });

async function startDeployment(prefix: string, upstream: OpenAIUpstream) {
  const kit = await startRelayKit({ REDIS_CONN_STRING: REDIS_URL, REDIS_KEY_PREFIX: prefix });
  cleanups.unshift(() => kit.close());
  await kit.createChannel({ upstream, models: 'gpt-4o' });
  const user = await kit.createUser();
  const { id, key } = await kit.createKey(user.id);
  await kit.test.context.db.updateTable('tokens').set({ rpm_limit: 2 }).where('id', '=', id).execute();
  return { kit, key, tokenId: id };
}

describe.skipIf(!isRedisUp)('REDIS_KEY_PREFIX', () => {
  it('keeps two deployments on one Redis apart: limits, rate limits and OAuth states', async () => {
    const redis = new Redis(REDIS_URL);
    cleanups.push(async () => {
      await redis.quit();
    });
    await redis.flushdb();
    const upstream = await startOpenAIUpstream('prefix', { usage: { prompt: 5, completion: 5 } });
    cleanups.push(() => upstream.close());
    const first = await startDeployment('deploy-a:', upstream);
    const second = await startDeployment('deploy-b:', upstream);
    // Same key id on both: a shared counter name, told apart only by the prefix.
    expect(first.tokenId).toBe(second.tokenId);

    expect([(await ask(first.kit, first.key)).status, (await ask(first.kit, first.key)).status]).toEqual([
      200, 200,
    ]);
    expect((await ask(first.kit, first.key)).status).toBe(429);
    expect([(await ask(second.kit, second.key)).status, (await ask(second.kit, second.key)).status]).toEqual([
      200, 200,
    ]);
    const state = await first.kit.test.app.inject({ url: '/api/oauth/state' });
    expect(state.json()).toMatchObject({ success: true });

    const keys = await redis.keys('*');
    expect(keys.some((key) => key.startsWith('deploy-a:limit:'))).toBe(true);
    expect(keys.some((key) => key.startsWith('deploy-b:limit:'))).toBe(true);
    expect(keys.some((key) => key.startsWith('deploy-a:oauth-state:'))).toBe(true);
    expect(keys.some((key) => key.startsWith('deploy-a:rate:'))).toBe(true);
    expect(keys.filter((key) => !key.startsWith('deploy-a:') && !key.startsWith('deploy-b:'))).toEqual([]);
  });
});
