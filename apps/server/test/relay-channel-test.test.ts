import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelStatus, ChannelType, LogType, Role } from '@gatehouse/shared';
import { testChannels } from '../src/channels/channel-health';
import { findRelayRuntime } from '../src/relay/relay-runtime';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startTencentStandIn } from './support/tencent-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createUserSession, envelope, type Session } from './test-app';

let kit: RelayKit;
let upstream: OpenAIUpstream;
let admin: Session;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('tested');
  kit = await startRelayKit();
  admin = await createUserSession(kit.test, { role: Role.admin });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(async () => {
  upstream.behaviour = {};
  upstream.received.length = 0;
  await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'false');
  await kit.test.context.options.set('AutomaticEnableChannelEnabled', 'false');
  await kit.test.context.options.set('ChannelDisableThreshold', '5');
});

interface TestAnswer {
  success: boolean;
  message: string;
  time: number;
  model: string;
}

async function runTest(id: number, model = ''): Promise<TestAnswer> {
  const response = await kit.test.app.inject({
    url: `/api/channel/test/${id}${model ? `?model=${model}` : ''}`,
    headers: admin.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json<TestAnswer>();
}

async function channelRow(id: number) {
  return kit.test.context.db
    .selectFrom('channels')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('GET /api/channel/test/{id}', () => {
  it('sends a tiny real request through the adapter and stores the response time', async () => {
    const id = await kit.createChannel({
      upstream,
      models: 'gpt-4o-mini,gpt-4o',
      modelMapping: { 'gpt-4o': 'gpt-4o-2024-11-20' },
    });
    const answer = await runTest(id);
    // The model's reply, as one-api's console shows it after "output:".
    expect(answer).toMatchObject({ success: true, message: 'Hello from tested', model: 'gpt-4o-mini' });
    expect(answer.time).toBeGreaterThanOrEqual(0);
    expect(upstream.received[0].json).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const row = await channelRow(id);
    expect(row.test_time).toBeGreaterThan(0);
    // The model asked for, through the channel's mapping.
    expect((await runTest(id, 'gpt-4o')).model).toBe('gpt-4o');
    expect(upstream.received[1].json?.model).toBe('gpt-4o-2024-11-20');
  });

  it('shortens a long reply to 100 characters', async () => {
    upstream.behaviour = { words: ['word '.repeat(60)] };
    const id = await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
    const answer = await runTest(id);
    expect(answer.success).toBe(true);
    expect(answer.message).toBe(`${'word '.repeat(20).slice(0, 100)}…`);
  });

  it('answers the upstream error and disables a channel with a dead key when asked to', async () => {
    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'true');
    upstream.behaviour = {
      error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' },
    };
    const id = await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
    const answer = await runTest(id);
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('Incorrect API key provided');
    expect((await channelRow(id)).status).toBe(ChannelStatus.autoDisabled);
  });

  it('disables a channel slower than ChannelDisableThreshold', async () => {
    await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'true');
    await kit.test.context.options.set('ChannelDisableThreshold', '0.2');
    upstream.behaviour = { delayMs: 400 };
    const id = await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
    const answer = await runTest(id);
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('ChannelDisableThreshold');
    const row = await channelRow(id);
    expect(row.status).toBe(ChannelStatus.autoDisabled);
    expect(row.response_time).toBeGreaterThanOrEqual(400);
  });

  it('acts on an error reported inside a 2xx body by its kind: refused credentials disable the channel', async () => {
    // Tencent Cloud answers a wrong secret with HTTP 200 and Response.Error (AuthFailure.SignatureFailure).
    const tencent = await startTencentStandIn();
    try {
      await kit.test.context.options.set('AutomaticDisableChannelEnabled', 'true');
      const id = await kit.createChannel({
        type: ChannelType.tencent,
        baseUrl: tencent.url,
        key: `1250000000|${tencent.secretId}|a-wrong-secret-key`,
        models: 'hunyuan-turbo',
      });
      const answer = await runTest(id);
      expect(answer.success).toBe(false);
      expect(answer.message).toMatch(/credentials were refused/);
      expect(answer.message).not.toContain('a-wrong-secret-key');
      expect((await channelRow(id)).status).toBe(ChannelStatus.autoDisabled);
    } finally {
      await tencent.close();
    }
  });

  it('says why a channel of a retired vendor cannot be tested', async () => {
    const id = await kit.createChannel({ type: ChannelType.palm, models: 'chat-bison-001' });
    const answer = await runTest(id);
    expect(answer).toMatchObject({
      success: false,
      message: expect.stringContaining('retired the PaLM API'),
    });
  });

  it('is for administrators only', async () => {
    const user = await createUserSession(kit.test);
    const response = await kit.test.app.inject({ url: '/api/channel/test/1', headers: user.headers });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/channel/test?scope=', () => {
  it('starts a background run and refuses a second one meanwhile', async () => {
    await kit.createChannel({ upstream, models: 'gpt-4o-mini' });
    const first = await kit.test.app.inject({ url: '/api/channel/test?scope=all', headers: admin.headers });
    expect(envelope(first).success).toBe(true);
    const second = await kit.test.app.inject({ url: '/api/channel/test?scope=all', headers: admin.headers });
    expect(envelope(second)).toMatchObject({
      success: false,
      message: expect.stringContaining('already running'),
    });
    const bad = await kit.test.app.inject({ url: '/api/channel/test?scope=some', headers: admin.headers });
    expect(envelope(bad).success).toBe(false);
  });

  it('re-enables channels disabled by the program that pass, never manually disabled ones', async () => {
    await kit.test.context.options.set('AutomaticEnableChannelEnabled', 'true');
    const auto = await kit.createChannel({
      upstream,
      models: 'gpt-4o-mini',
      status: ChannelStatus.autoDisabled,
    });
    const manual = await kit.createChannel({
      upstream,
      models: 'gpt-4o-mini',
      status: ChannelStatus.manuallyDisabled,
    });
    const runtime = findRelayRuntime(kit.test.context);
    if (!runtime) throw new Error('relay runtime missing');
    await testChannels(runtime, 'disabled', 0);
    expect((await channelRow(auto)).status).toBe(ChannelStatus.enabled);
    expect((await channelRow(manual)).status).toBe(ChannelStatus.manuallyDisabled);
    const log = await kit.test.context.db
      .selectFrom('logs')
      .select('content')
      .where('type', '=', LogType.manage)
      .where('content', 'like', `%(#${auto})%enabled again%`)
      .executeTakeFirst();
    expect(log).toBeDefined();
  });
});
