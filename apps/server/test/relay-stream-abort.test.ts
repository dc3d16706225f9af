import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
let upstream: OpenAIUpstream;
const words = Array.from({ length: 40 }, (_, index) => ` word${index}`);

beforeAll(async () => {
  upstream = await startOpenAIUpstream('slow-talker', { words, chunkDelayMs: 60 });
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});

describe('client disconnect mid-stream', () => {
  it('aborts the upstream call at once and bills what was produced', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    const abort = new AbortController();
    const stream = await kit
      .client(key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'talk slowly' }], stream: true },
        { signal: abort.signal },
      );
    let received = '';
    const read = async () => {
      for await (const chunk of stream) {
        received += chunk.choices[0]?.delta?.content ?? '';
        if (received.split('word').length > 3) abort.abort();
      }
    };
    // The SDK ends the iteration quietly (or with an abort error) once its request is aborted.
    await read().catch((error: unknown) => expect(String(error)).toMatch(/abort/i));
    expect(abort.signal.aborted).toBe(true);
    const abortedAt = Date.now();
    // The upstream sees its connection closed long before its 40 words (2.4 s) were out.
    await expect.poll(() => upstream.streamsCutByClient, { timeout: 1000, interval: 20 }).toBe(1);
    expect(Date.now() - abortedAt).toBeLessThan(1000);

    await expect
      .poll(async () => {
        await kit.settle();
        return kit.test.context.db
          .selectFrom('logs')
          .selectAll()
          .where('type', '=', LogType.consume)
          .where('user_id', '=', user.id)
          .executeTakeFirst();
      })
      .toBeDefined();
    const log = await kit.test.context.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    // At least the three words the client read, far fewer than the 40 the upstream would have produced.
    expect(log.completion_tokens).toBeGreaterThanOrEqual(3 * 2);
    expect(log.completion_tokens).toBeLessThan(40);
    expect(log.content).toContain('client disconnected');
    expect(log.quota).toBeGreaterThan(0);
    expect(await kit.userQuota(user.id)).toBe(1_000_000 - log.quota);
  });
});
