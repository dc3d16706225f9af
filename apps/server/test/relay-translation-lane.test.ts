import { describe, expect, it, vi } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { tiny } from './support/tiny-vendor';
import {
  channelId,
  kit,
  lastLog,
  newClient,
  upstream,
  useTranslationLane,
} from './support/translation-lane-kit';

/**
 * The translated lane end to end, with the `openai` SDK as the client and the tiny vendor
 * (support/tiny-vendor) behind Anthropic channels: JSON and streamed answers, and the access tokens it
 * derives from the channel key. Its refusals and failures are in relay-translation-lane-failures.test.ts.
 */
vi.mock('../src/providers/provider-registry', async (importOriginal) =>
  (await import('./support/tiny-vendor')).withTinyVendor(importOriginal),
);
useTranslationLane();

describe('the translated lane', () => {
  it('answers a JSON chat through the translator and bills the usage it reported', async () => {
    const { user, client } = await newClient();
    upstream.behaviour = { usage: { prompt: 100, completion: 20 } };
    const completion = await client.chat.completions.create({
      model: 'tiny-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 50,
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    expect(completion.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 20 });
    const sent = upstream.received[0];
    expect(sent.json).toEqual({
      model: 'tiny-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 50,
    });
    expect(sent.headers.authorization).toMatch(/^Bearer token-\d+-tiny-key$/);
    expect(await lastLog()).toMatchObject({ user_id: user.id, prompt_tokens: 100, completion_tokens: 20 });
  });

  it('maps the model and drops fields the vendor protocol does not have', async () => {
    const { key } = await newClient();
    const response = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-alias',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
        ],
        some_vendor_flag: true,
      }),
    });
    expect(response.status).toBe(200);
    expect(upstream.received[0].json).toEqual({
      model: 'tiny-model-2025',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  it('streams canonical chunks back as OpenAI chunks, with the usage chunk only when asked', async () => {
    const { client, key } = await newClient();
    upstream.behaviour = { words: ['Hel', 'lo', '!'], usage: { prompt: 9, completion: 3 } };
    const stream = await client.chat.completions.create({
      model: 'tiny-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello!');
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
    expect(upstream.received[0].json?.stream_options).toEqual({ include_usage: true });

    const raw = await fetch(`${kit.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-model',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    });
    const events = await raw.text();
    expect(events).not.toContain('"choices":[]');
    expect(events.endsWith('data: [DONE]\n\n')).toBe(true);
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 9, completion_tokens: 3, is_stream: 1 });
  });

  it('streams tool calls', async () => {
    const { client } = await newClient();
    const stream = await client.chat.completions.create({
      model: 'tiny-model',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      stream: true,
    });
    let name = '';
    let args = '';
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });
});

describe('access tokens derived from the channel key', () => {
  it('prepares one token for twenty concurrent requests and reuses it', async () => {
    await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'fresh-key',
      models: 'tiny-fresh',
    });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({ 'tiny-model': 1, 'tiny-alias': 1, 'tiny-refused': 1, 'tiny-fresh': 1 }),
    );
    const { client } = await newClient();
    const before = tiny.prepareCalls;
    tiny.prepareDelayMs = 50;
    const ask = () =>
      client.chat.completions.create({ model: 'tiny-fresh', messages: [{ role: 'user', content: 'hi' }] });
    await Promise.all(Array.from({ length: 20 }, ask));
    await ask();
    tiny.prepareDelayMs = 0;
    expect(tiny.prepareCalls - before).toBe(1);
    const tokens = new Set(upstream.received.map((request) => request.headers.authorization));
    expect(tokens).toEqual(new Set([`Bearer token-${before + 1}-fresh-key`]));
  });

  it('does not remember a failed refresh: the next request gets a token', async () => {
    await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'flaky-key',
      models: 'tiny-flaky',
    });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({
        'tiny-model': 1,
        'tiny-alias': 1,
        'tiny-refused': 1,
        'tiny-fresh': 1,
        'tiny-flaky': 1,
      }),
    );
    const { user, client } = await newClient(500_000);
    tiny.failNextPrepare = true;
    const error = (await client.chat.completions
      .create({ model: 'tiny-flaky', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; message: string };
    expect(error.status).toBe(502);
    expect(error.message).toContain('Could not get an access token for the Anthropic Claude channel');
    expect(upstream.received).toHaveLength(0);
    const completion = await client.chat.completions.create({
      model: 'tiny-flaky',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBeLessThan(500_000);
    expect(channelId).toBeGreaterThan(0);
  });
});
