import { describe, expect, it, vi } from 'vitest';
import { ChannelStatus, ChannelType } from '@gatehouse/shared';
import { kit, newClient, upstream, useTranslationLane } from './support/translation-lane-kit';

/**
 * The translated lane's refusals and failures, with the `openai` SDK as the client and the tiny vendor
 * (support/tiny-vendor) behind Anthropic channels: options the vendor lacks, answers it cannot read, refused
 * credentials, and what the relay reads from the adapter's errors.
 */
vi.mock('../src/providers/provider-registry', async (importOriginal) =>
  (await import('./support/tiny-vendor')).withTinyVendor(importOriginal),
);
useTranslationLane();

describe('refusals and failures on the translated lane', () => {
  it('refuses an option the vendor lacks with 400 naming vendor and option, before sending, charging nothing', async () => {
    const { user, client } = await newClient(500_000);
    const error = (await client.chat.completions
      .create({ model: 'tiny-model', messages: [{ role: 'user', content: 'hi' }], n: 2 })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error.status).toBe(400);
    expect(error.code).toBe('unsupported_option');
    expect(error.message).toContain('Tiny does not support n > 1');
    expect(error.message).toContain('Anthropic Claude');
    expect(upstream.received).toHaveLength(0);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it.each([
    ['a cut JSON answer', { raw: { body: '{"id":"x","choices":[{"message":' } }, false],
    ['an answer without choices', { raw: { body: '{"id":"x","object":"chat.completion"}' } }, false],
    [
      'a stream event that is not JSON',
      { raw: { contentType: 'text/event-stream', body: 'data: {"id":"x","choices":[{\n\n' } },
      true,
    ],
  ])('answers %s with 502 naming the channel type and refunds', async (_case, behaviour, stream) => {
    const { user, client } = await newClient(500_000);
    upstream.behaviour = behaviour;
    const error = (await client.chat.completions
      .create({ model: 'tiny-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, stream })
      .then(async (answer) => {
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) void _chunk;
      })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error.status).toBe(502);
    expect(error.code).toBe('bad_upstream_answer');
    expect(error.message).toContain('Anthropic Claude');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('answers refused channel credentials with a 502 naming the channel type, and disables the channel', async () => {
    const refused = await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key: 'revoked-key',
      models: 'tiny-refused',
    });
    await kit.test.context.options.set(
      'ModelRatio',
      JSON.stringify({ 'tiny-model': 1, 'tiny-alias': 1, 'tiny-refused': 1 }),
    );
    const { user, client } = await newClient(500_000);
    const ask = () =>
      client.chat.completions
        .create({ model: 'tiny-refused', messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught) as Promise<{ status: number; code: string; message: string }>;
    const channelStatus = async () =>
      (
        await kit.test.context.db
          .selectFrom('channels')
          .select('status')
          .where('id', '=', refused)
          .executeTakeFirstOrThrow()
      ).status;

    for (const status of [403, 401]) {
      upstream.behaviour = { error: { status, message: 'invalid x-api-key', type: 'authentication_error' } };
      const error = await ask();
      expect(error.status).toBe(502);
      expect(error.code).toBe('channel_auth_failed');
      expect(error.message).toContain(
        `The Anthropic Claude channel's credentials were refused by the upstream (HTTP ${status}): invalid x-api-key`,
      );
      expect(error.message).toContain('your API key is fine');
    }
    // Automatic disabling is off: the channel stays.
    expect(await channelStatus()).toBe(ChannelStatus.enabled);

    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'true');
    expect((await ask()).code).toBe('channel_auth_failed');
    await expect.poll(channelStatus).toBe(ChannelStatus.autoDisabled);
    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'false');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });
});

describe('failures the relay reads from the adapter', () => {
  async function channelFor(model: string, key: string, priority = 0) {
    const id = await kit.createChannel({
      upstream,
      type: ChannelType.anthropic,
      key,
      models: model,
      priority,
    });
    const ratios = JSON.parse(kit.test.context.options.get('ModelRatio')) as Record<string, number>;
    await kit.test.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
    return id;
  }
  const reportedIn200 = (kind: string, message: string) => ({
    raw: { body: JSON.stringify({ reported: { kind, message } }) },
  });

  it('acts on an error reported in a 200 answer by its kind, with the vendor’s words', async () => {
    await channelFor('tiny-reported', 'reported-key');
    const { user, client } = await newClient(500_000);
    const ask = () =>
      client.chat.completions
        .create({ model: 'tiny-reported', messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught) as Promise<{ status: number; code: string; message: string }>;

    upstream.behaviour = reportedIn200('rate_limit', 'QPS limit reached');
    expect(await ask()).toMatchObject({ status: 429, message: expect.stringContaining('QPS limit reached') });
    upstream.behaviour = reportedIn200('invalid_request', 'messages must alternate');
    expect(await ask()).toMatchObject({
      status: 400,
      message: expect.stringContaining('messages must alternate'),
    });
    upstream.behaviour = reportedIn200('authentication', 'access token expired');
    expect(await ask()).toMatchObject({ status: 502, code: 'channel_auth_failed' });
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('answers a channel key the adapter cannot use as the channel’s setup, not as an unreachable upstream', async () => {
    const broken = await channelFor('tiny-setup', 'unreadable-key', 10);
    const { client } = await newClient();
    const error = (await client.chat.completions
      .create({ model: 'tiny-setup', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error).toMatchObject({ status: 502, code: 'channel_misconfigured' });
    expect(error.message).toContain(
      "The Anthropic Claude channel's key or settings cannot be used: the stored key is not valid JSON",
    );
    expect(upstream.received).toHaveLength(0);

    await channelFor('tiny-setup', 'usable-key', 0);
    await kit.test.context.options.set('RetryTimes', '1');
    const completion = await client.chat.completions.create({
      model: 'tiny-setup',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0].message.content).toBe('Hello from alpha');
    const status = await kit.test.context.db
      .selectFrom('channels')
      .select('status')
      .where('id', '=', broken)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe(ChannelStatus.enabled);
  });

  it('drops an access token the upstream refuses with 401, and the next request gets a new one', async () => {
    await channelFor('tiny-revoked', 'revocable-key');
    const { client } = await newClient();
    const ask = () =>
      client.chat.completions.create({ model: 'tiny-revoked', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    const first = upstream.received[0].headers.authorization;
    upstream.behaviour = { error: { status: 401, message: 'token revoked', type: 'authentication_error' } };
    await expect(ask()).rejects.toMatchObject({ status: 502, code: 'channel_auth_failed' });
    upstream.behaviour = {};
    await ask();
    const last = upstream.received.at(-1)?.headers.authorization;
    expect(last).toMatch(/^Bearer token-\d+-revocable-key$/);
    expect(last).not.toBe(first);
  });
});
