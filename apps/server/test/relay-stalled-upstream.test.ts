import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { startScriptedUpstream, type ScriptedUpstream } from './support/scripted-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * An upstream that goes quiet, under RELAY_TIMEOUT=1: before its headers, the client gets a 504 in its own
 * protocol and nothing is charged; after one event of a stream, the stream ends with the protocol's error event
 * and what was delivered is billed. Either way no reservation is left held.
 */
let kit: RelayKit;
let upstream: ScriptedUpstream;
let stall: (response: ServerResponse) => void = () => undefined;

const FIRST_EVENT = {
  id: 'chatcmpl-stalled',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello there' }, finish_reason: null }],
};
const neverAnswers = () => undefined;
const quietAfterOneEvent = (response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(`data: ${JSON.stringify(FIRST_EVENT)}\n\n`);
};

beforeAll(async () => {
  kit = await startRelayKit({ RELAY_TIMEOUT: '1' });
  upstream = await startScriptedUpstream(
    (response) => stall(response),
    () => undefined,
  );
  await kit.createChannel({ baseUrl: upstream.origin, models: 'gpt-4o-mini' });
});

afterAll(async () => {
  await kit.close();
  await upstream.close();
});

/** A user with 1 000 000 quota and a limited key; asks in the OpenAI or Anthropic protocol, raw. */
async function ask(protocol: 'openai' | 'anthropic', stream: boolean) {
  const user = await kit.createUser();
  const { key } = await kit.createKey(user.id, { isUnlimited: false });
  const startedAt = Date.now();
  const response = await fetch(
    `${kit.gatewayUrl}/v1/${protocol === 'openai' ? 'chat/completions' : 'messages'}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        stream,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    },
  );
  const text = await response.text();
  await kit.settle();
  const { db } = kit.test.context;
  const logs = await db.selectFrom('logs').select(['type', 'quota']).where('user_id', '=', user.id).execute();
  return {
    status: response.status,
    text,
    elapsedMs: Date.now() - startedAt,
    spent: 1_000_000 - (await kit.userQuota(user.id)),
    charged: logs
      .filter((log) => log.type === LogType.consume)
      .reduce((sum, log) => sum + Number(log.quota), 0),
    errorLogs: logs.filter((log) => log.type === LogType.error).length,
    reservations: (await db.selectFrom('quota_reservations').select('id').execute()).length,
  };
}

describe('an upstream that sends no headers', () => {
  it('answers 504 upstream_timeout to an OpenAI client after RELAY_TIMEOUT and charges nothing', async () => {
    stall = neverAnswers;
    const answer = await ask('openai', true);
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.text)).toMatchObject({
      error: { type: 'upstream_error', code: 'upstream_timeout' },
    });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(900);
    expect(answer).toMatchObject({ spent: 0, charged: 0, errorLogs: 1, reservations: 0 });
  });

  it("answers Anthropic's timeout_error to a Messages client", async () => {
    stall = neverAnswers;
    const answer = await ask('anthropic', false);
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'error', error: { type: 'timeout_error' } });
    expect(answer).toMatchObject({ spent: 0, charged: 0, errorLogs: 1, reservations: 0 });
  });
});

describe('a stream that goes quiet after its first event', () => {
  it('ends with an error event for an OpenAI client and bills what was delivered', async () => {
    stall = quietAfterOneEvent;
    const answer = await ask('openai', true);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Hello there');
    expect(answer.text).toMatch(/data: \{"error":\{[^\n]*"code":"stream_interrupted"\}\}\n\n$/);
    expect(answer.charged).toBeGreaterThan(0);
    expect(answer).toMatchObject({ spent: answer.charged, reservations: 0 });
  });

  it('ends with an error event for an Anthropic client and bills what was delivered', async () => {
    stall = quietAfterOneEvent;
    const answer = await ask('anthropic', true);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"text":"Hello there"');
    expect(answer.text).toMatch(/event: error\ndata: \{"type":"error"[^\n]*\n\n$/);
    expect(answer.charged).toBeGreaterThan(0);
    expect(answer).toMatchObject({ spent: answer.charged, reservations: 0 });
  });
});
