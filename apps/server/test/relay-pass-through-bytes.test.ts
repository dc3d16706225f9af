import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.behaviour = {};
  upstream.received.length = 0;
});

async function streamRaw(key: string, body: string): Promise<string> {
  const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe('pass-through streams: the usage request added to the client bytes', () => {
  it('keeps the client body as written (spacing, key order, number forms) and only adds stream_options', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { usage: { prompt: 10, completion: 4 } };
    const body =
      '  {\n  "stream" : true, "temperature": 1.0, "model": "gpt-4o-mini",\n' +
      '  "messages": [ {"role": "user", "content": "hi \\u00e9"} ], "top_p": 1e0 }\n';
    const events = await streamRaw(key, body);
    expect(events).toContain('Hello from alpha'.slice(0, 5));
    expect(events).not.toContain('"usage"');
    const sent = upstream.received[0].body.toString();
    expect(sent).toBe(`  {"stream_options":{"include_usage":true},${body.trimStart().slice(1)}`);
    expect(upstream.received[0].json?.stream_options).toEqual({ include_usage: true });
    await kit.settle();
    const log = await kit.test.context.db
      .selectFrom('logs')
      .select(['prompt_tokens', 'completion_tokens'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(log).toEqual({ prompt_tokens: 10, completion_tokens: 4 });
  });

  it('re-serialises when the client sent stream_options of its own without include_usage', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    upstream.behaviour = { usage: { prompt: 10, completion: 4 } };
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_obfuscation: false },
    });
    await streamRaw(key, body);
    expect(upstream.received[0].json?.stream_options).toEqual({
      include_obfuscation: false,
      include_usage: true,
    });
  });
});
