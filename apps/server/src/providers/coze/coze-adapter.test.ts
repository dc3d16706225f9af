import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCozeStandIn, type CozeStandIn } from '../../../test/support/coze-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { CanonicalChatInput } from '../../canonical/translation';
import { CozeReportedError, cozeTranslator } from './coze-adapter';

let standIn: CozeStandIn;

beforeAll(async () => {
  standIn = await startCozeStandIn({ token: 'pat_test' });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.received.length = 0;
});

function inputOf(fields: {
  isStream?: boolean;
  key?: string;
  userId?: string;
  model?: string;
  request?: Partial<ChatRequest>;
}) {
  const input: CanonicalChatInput = {
    channel: {
      baseUrl: standIn.url,
      key: fields.key ?? 'pat_test',
      other: '',
      config: fields.userId ? { user_id: fields.userId } : {},
    },
    request: { model: 'my-bot', messages: [{ role: 'user', content: 'Hi' }], ...fields.request },
    upstreamModel: fields.model ?? 'bot-7379462189365198898',
    isStream: fields.isStream ?? false,
    clientHeaders: {},
  };
  return input;
}

/** Sends what the translator builds over a real socket and feeds the answer to the decoder as it comes. */
async function stream(input: CanonicalChatInput) {
  const upstream = await cozeTranslator.buildRequest(input);
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
  const decoder = cozeTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

async function call(input: CanonicalChatInput) {
  const upstream = await cozeTranslator.buildRequest(input);
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
  return cozeTranslator.readResponse(Buffer.from(await response.arrayBuffer()));
}

describe('the Coze adapter against a stand-in speaking chat v3', () => {
  it('streams the bot’s answer with the channel’s user id and the chat usage', async () => {
    const { chunks, usage } = await stream(inputOf({ isStream: true, userId: 'ops-team' }));
    expect(
      chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join(''),
    ).toBe('Hello from coze');
    expect(usage?.completionTokens).toBe(3);
    expect(usage?.promptTokens).toBeGreaterThan(0);
    const [received] = standIn.received;
    expect(received.url).toBe('/v3/chat');
    expect(received.headers.authorization).toBe('Bearer pat_test');
    expect(received.json).toMatchObject({ bot_id: '7379462189365198898', user_id: 'ops-team', stream: true });
  });

  it('answers a non-stream client from the stream', async () => {
    const { completion, usage } = await call(inputOf({}));
    expect(completion.choices[0]).toMatchObject({
      message: { content: 'Hello from coze' },
      finish_reason: 'stop',
    });
    expect(completion.usage?.completion_tokens).toBe(3);
    expect(usage?.completionTokens).toBe(3);
    expect(standIn.received[0].json?.stream).toBe(true);
  });

  it('reads refusals answered with 200: a wrong token as authentication, an unknown bot as not found', async () => {
    await expect(call(inputOf({ key: 'pat_wrong' }))).rejects.toSatisfy(
      (error) => error instanceof CozeReportedError && error.details.kind === 'authentication',
    );
    await expect(stream(inputOf({ isStream: true, model: 'bot-1' }))).rejects.toSatisfy(
      (error) =>
        error instanceof CozeReportedError &&
        error.details.kind === 'not_found' &&
        error.details.code === '4200',
    );
  });

  it('throws a chat that failed after it started, once its first words are answered', async () => {
    standIn.behaviour = { fixture: 'stream-chat-failed.sse' };
    await expect(stream(inputOf({ isStream: true }))).rejects.toSatisfy(
      (error) => error instanceof CozeReportedError && error.details.kind === 'rate_limit',
    );
  });
});
