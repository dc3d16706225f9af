import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSparkStandIn, type SparkStandIn } from '../../../test/support/spark-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { CanonicalChatInput } from '../../canonical/translation';
import type { UpstreamAnswer } from '../provider-types';
import { readError, sparkTransport, xunfeiAdapter, xunfeiTranslator } from './xunfei-adapter';

let standIn: SparkStandIn;

beforeAll(async () => {
  standIn = await startSparkStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.frames.length = 0;
  standIn.httpRequests.length = 0;
});

const webSocketKey = () => `${standIn.appId}|${standIn.apiSecret}|${standIn.apiKey}`;

function inputOf(
  fields: {
    model?: string;
    key?: string;
    version?: string;
    isStream?: boolean;
    request?: Partial<ChatRequest>;
  } = {},
) {
  const input: CanonicalChatInput = {
    channel: {
      baseUrl: standIn.url,
      key: fields.key ?? webSocketKey(),
      other: fields.version ?? '',
      config: {},
    },
    request: { model: 'spark', messages: [{ role: 'user', content: '你好' }], ...fields.request },
    upstreamModel: fields.model ?? 'generalv3.5',
    isStream: fields.isStream ?? true,
    clientHeaders: {},
  };
  return input;
}

async function send(input: CanonicalChatInput, signal: AbortSignal = new AbortController().signal) {
  return sparkTransport.send(await xunfeiTranslator.buildRequest(input), signal);
}

async function readBody(answer: UpstreamAnswer): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of answer.body) pieces.push(Buffer.from(piece as Buffer));
  return Buffer.concat(pieces);
}

/** Feeds the answer to the decoder as the transport delivers it. */
async function decode(answer: UpstreamAnswer) {
  const decoder = xunfeiTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of answer.body) chunks.push(...decoder.push(Buffer.from(piece as Buffer)));
  chunks.push(...decoder.end());
  return {
    text: chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join(''),
    finish: chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean),
    chunks,
    usage: decoder.usage(),
  };
}

describe('the iFlytek Spark adapter against a stand-in speaking its WebSocket and HTTP APIs', () => {
  it('signs the URL, sends the frame for the model’s version and streams the answer frames', async () => {
    const answer = await send(inputOf({ request: { temperature: 0.5, max_tokens: 100 } }));
    expect(answer.statusCode).toBe(200);
    const { text, finish, usage } = await decode(answer);
    expect(text).toBe('Hello from spark');
    expect(finish).toEqual(['stop']);
    expect(usage?.completionTokens).toBe(3);
    expect(standIn.frames[0]).toMatchObject({
      path: '/v3.5/chat',
      frame: {
        header: { app_id: standIn.appId },
        parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 100 } },
      },
    });
  });

  it("takes the version from the channel's field, and answers a non-stream client from the frames", async () => {
    const answer = await send(inputOf({ model: 'SparkDesk', version: 'v4.0', isStream: false }));
    const { completion, usage } = xunfeiTranslator.readResponse(await readBody(answer));
    expect(standIn.frames[0].path).toBe('/v4.0/chat');
    expect(completion.choices[0]).toMatchObject({
      message: { content: 'Hello from spark' },
      finish_reason: 'stop',
    });
    expect(usage?.completionTokens).toBe(3);
  });

  it('decodes a function call the model makes', async () => {
    const tools = [
      { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object' } } },
    ];
    const { chunks, finish } = await decode(await send(inputOf({ request: { tools } })));
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls[0]).toMatchObject({
      type: 'function',
      function: { name: 'weather', arguments: '{"location":"合肥"}' },
    });
    expect(finish).toEqual(['tool_calls']);
  });

  it('answers a refused handshake with its status, read as a refused key', async () => {
    const answer = await send(inputOf({ key: `${standIn.appId}|wrong-secret|${standIn.apiKey}` }));
    expect(answer.statusCode).toBe(401);
    expect(readError(await readBody(answer), answer.statusCode)).toMatchObject({
      message: 'HMAC signature cannot be verified',
      kind: 'authentication',
    });
    expect(standIn.refusedHandshakes).toBeGreaterThan(0);
  });

  it('answers an error frame that comes first as the HTTP status of its code', async () => {
    standIn.behaviour = { errorCode: 11200 };
    const licence = await send(inputOf());
    expect(licence.statusCode).toBe(401);
    expect(xunfeiAdapter.readError(await readBody(licence), licence.statusCode)).toMatchObject({
      code: '11200',
      kind: 'authentication',
    });
    standIn.behaviour = { errorCode: 11202 };
    const limited = await send(inputOf());
    expect(limited.statusCode).toBe(429);
    expect(readError(await readBody(limited), limited.statusCode).kind).toBe('rate_limit');
  });

  it('ends an answer the review stopped with content_filter, and reports one cut short', async () => {
    standIn.behaviour = { errorAfterFirstFrame: 10014 };
    expect(await decode(await send(inputOf()))).toMatchObject({ text: 'Hello', finish: ['content_filter'] });
    standIn.behaviour = { closeAfterFrames: 1 };
    await expect(decode(await send(inputOf()))).rejects.toThrow('ended before its last frame');
  });

  it('closes the connection when the call is aborted', async () => {
    standIn.behaviour = { words: Array.from({ length: 200 }, (_, index) => ` w${index}`) };
    const controller = new AbortController();
    const answer = await send(inputOf(), controller.signal);
    controller.abort();
    await expect(readBody(answer)).rejects.toThrow();
    await expect.poll(() => standIn.closedByClient, { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('serves an APIPassword key over the OpenAI-compatible HTTP API, with the domain as model', async () => {
    const stream = await decode(await send(inputOf({ key: standIn.apiPassword, model: 'SparkDesk-v3.5' })));
    expect(stream.text).toBe('generalv3.5 says hi');
    expect(stream.usage).toEqual({ promptTokens: 6, completionTokens: 2 });
    expect(standIn.httpRequests[0]).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${standIn.apiPassword}` },
      json: { model: 'generalv3.5', stream: true },
    });
    const whole = await send(inputOf({ key: standIn.apiPassword, model: 'lite', isStream: false }));
    expect(xunfeiTranslator.readResponse(await readBody(whole)).completion.choices[0].message.content).toBe(
      'lite says hi',
    );
    const refused = await send(inputOf({ key: 'wrong-password' }));
    expect(readError(await readBody(refused), refused.statusCode)).toMatchObject({
      kind: 'authentication',
      message: 'invalid user',
    });
  });
});
