import { request as httpRequest, type IncomingMessage } from 'node:http';
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

describe('a client that reads slowly', () => {
  it('gets the whole stream in order: the relay waits for its socket instead of dropping or reordering', async () => {
    // ~12 MB of answer: more than the loopback socket buffers hold while the client is not reading.
    const bigWords = Array.from({ length: 200 }, (_, index) => `<${index}>${'x'.repeat(60_000)}`);
    const big = await startOpenAIUpstream('big-talker', { words: bigWords });
    try {
      await kit.createChannel({ upstream: big, models: 'gpt-4o' });
      const user = await kit.createUser({ quota: 1_000_000_000 });
      const { key } = await kit.createKey(user.id);
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = httpRequest(`${kit.gatewayUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        });
        outgoing.on('response', resolve).on('error', reject);
        outgoing.end(
          JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }], stream: true }),
        );
      });
      expect(response.statusCode).toBe(200);
      response.pause();
      await new Promise((resolve) => setTimeout(resolve, 500));
      let text = '';
      response.setEncoding('utf8');
      for await (const piece of response) text += piece as string;
      const events = text.split('\n\n').filter((event) => event.startsWith('data: '));
      expect(events[events.length - 1]).toBe('data: [DONE]');
      const content = events
        .slice(0, -1)
        .map((event) => JSON.parse(event.slice(6)) as { choices: Array<{ delta?: { content?: string } }> })
        .map((chunk) => chunk.choices[0]?.delta?.content ?? '')
        .join('');
      expect(content).toBe(bigWords.join(''));
    } finally {
      await big.close();
    }
  });
});
