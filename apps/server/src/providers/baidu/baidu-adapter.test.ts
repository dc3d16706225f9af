import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBaiduStandIn, type BaiduStandIn } from '../../../test/support/baidu-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import {
  CredentialRefusedError,
  UpstreamReportedError,
  type CanonicalChatInput,
  type CredentialFetch,
  type TranslatorChannel,
} from '../../canonical/translation';
import type { JsonRequestInput } from '../provider-types';
import { baiduAdapter, baiduTranslator, prepareCredential } from './baidu-adapter';

let standIn: BaiduStandIn;

beforeAll(async () => {
  standIn = await startBaiduStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.received.length = 0;
});

/** The relay's credential fetch, over a real socket. */
const credentialFetch: CredentialFetch = async (request) => {
  const response = await fetch(request.url, {
    method: request.method ?? 'POST',
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
};

async function channelOf(key = `${standIn.apiKey}|${standIn.secretKey}`): Promise<TranslatorChannel> {
  const channel: TranslatorChannel = { baseUrl: standIn.url, key, other: '', config: {} };
  const { accessToken } = await prepareCredential(channel, credentialFetch);
  return { ...channel, accessToken };
}

function inputOf(
  channel: TranslatorChannel,
  request: Partial<ChatRequest> = {},
  isStream = false,
): CanonicalChatInput {
  return {
    channel,
    request: { model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel: 'ERNIE-4.0-8K',
    isStream,
    clientHeaders: {},
  };
}

async function call(input: CanonicalChatInput) {
  const upstream = await baiduTranslator.buildRequest(input);
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** Feeds the stream to the decoder as the network delivers it. */
async function stream(input: CanonicalChatInput) {
  const upstream = await baiduTranslator.buildRequest(input);
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
  const decoder = baiduTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const text = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('');

describe('the Baidu translator against a stand-in speaking Qianfan’s v1 API', () => {
  it('gets an access token, calls the model’s endpoint with it, and reads the answer', async () => {
    const channel = await channelOf();
    const { status, body } = await call(
      inputOf(channel, {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      }),
    );
    expect(status).toBe(200);
    const { completion, usage } = baiduTranslator.readResponse(body);
    expect(completion.choices[0]!.message.content).toBe('Hello from ernie');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    const [token, chat] = standIn.received;
    expect(token!.path).toBe('/oauth/2.0/token');
    expect(chat!.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(chat!.query.get('access_token')).toBe(channel.accessToken);
    expect(chat!.json).toEqual({ messages: [{ role: 'user', content: 'Hi' }], system: 'Be brief.' });
  });

  it('streams the text and the usage of the last event', async () => {
    const { chunks, usage } = await stream(inputOf(await channelOf(), {}, true));
    expect(text(chunks)).toBe('Hello from ernie');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    expect(standIn.received.at(-1)!.json).toMatchObject({ stream: true });
  });

  it('makes a tool round trip that ERNIE accepts', async () => {
    const channel = await channelOf();
    const tools: ChatRequest['tools'] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    const first = baiduTranslator.readResponse((await call(inputOf(channel, { tools }))).body);
    const toolCall = first.completion.choices[0]!.message.tool_calls![0]!;
    expect(toolCall.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    const second = await call(
      inputOf(channel, {
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          first.completion.choices[0]!.message,
          { role: 'tool', tool_call_id: toolCall.id, content: '{"celsius":21}' },
        ],
      }),
    );
    expect(baiduTranslator.readResponse(second.body).completion.choices[0]!.message.content).toBe(
      'Hello from ernie',
    );
    expect((standIn.received.at(-1)!.json!.messages as unknown[])[2]).toEqual({
      role: 'function',
      name: 'get_weather',
      content: '{"celsius":21}',
    });
  });

  it('throws a revoked token’s HTTP 200 error as an authentication failure', async () => {
    const channel = await channelOf();
    standIn.tokens.clear();
    const { status, body } = await call(inputOf(channel));
    expect(status).toBe(200);
    expect(() => baiduTranslator.readResponse(body)).toThrow(UpstreamReportedError);
    expect(() => baiduTranslator.readResponse(body)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ kind: 'authentication', code: '110' }) }),
    );
  });

  it('throws a rate limit answered to a stream request', async () => {
    standIn.behaviour = { error: { error_code: 336501, error_msg: 'Rate limit reached for RPM' } };
    await expect(stream(inputOf(await channelOf(), {}, true))).rejects.toMatchObject({
      details: { kind: 'rate_limit', code: '336501' },
    });
  });

  it('refuses a wrong secret when preparing the credential', async () => {
    const channel = { baseUrl: standIn.url, key: `${standIn.apiKey}|wrong`, other: '', config: {} };
    await expect(prepareCredential(channel, credentialFetch)).rejects.toBeInstanceOf(CredentialRefusedError);
  });

  it('serves OpenAI embeddings from the model’s embeddings endpoint', async () => {
    const channel = await channelOf();
    const body = { model: 'Embedding-V1', input: ['one', 'three'], encoding_format: 'float' };
    const input: JsonRequestInput = {
      channel,
      body,
      rawBody: Buffer.from(JSON.stringify(body)),
      upstreamModel: 'Embedding-V1',
      isModelMapped: false,
    };
    const upstream = await baiduAdapter.embeddings!.buildRequest(input);
    const response = await fetch(upstream.url, {
      method: 'POST',
      headers: upstream.headers,
      body: upstream.body,
    });
    const read = baiduAdapter.embeddings!.readResponse(Buffer.from(await response.arrayBuffer()), input);
    expect(standIn.received.at(-1)!.path).toBe(
      '/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1',
    );
    expect(read.answer).toMatchObject({
      object: 'list',
      model: 'Embedding-V1',
      data: [
        { index: 0, embedding: [0.3, 0.5] },
        { index: 1, embedding: [0.5, 0.5] },
      ],
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    expect(read.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
  });
});

describe('a Baidu channel with one Qianfan API key', () => {
  it('speaks the OpenAI-compatible v2 API with the key as a bearer token', async () => {
    const channel = await channelOf(standIn.v2Key);
    const { body } = await call(inputOf(channel));
    expect(baiduTranslator.readResponse(body).completion.choices[0]!.message.content).toBe(
      'Hello from qianfan',
    );
    const received = standIn.received.at(-1)!;
    expect(received.path).toBe('/v2/chat/completions');
    expect(received.headers.authorization).toBe(`Bearer ${standIn.v2Key}`);
    expect(received.json).toMatchObject({ model: 'ERNIE-4.0-8K' });
    expect(standIn.received.some((request) => request.path === '/oauth/2.0/token')).toBe(false);
  });

  it('streams with usage', async () => {
    const { chunks, usage } = await stream(inputOf(await channelOf(standIn.v2Key), {}, true));
    expect(text(chunks)).toBe('Hello from qianfan');
    expect(usage).toEqual({ promptTokens: 9, completionTokens: 3 });
  });
});

describe('the Baidu adapter', () => {
  it('translates every client and reads both APIs’ errors', () => {
    expect(baiduAdapter).toMatchObject({ protocol: 'baidu-wenxin', wireFormat: 'baidu-wenxin' });
    expect(baiduAdapter.passThrough).toBeUndefined();
    expect(
      baiduAdapter.readError(
        Buffer.from('{"error_code":18,"error_msg":"Open api qps request limit reached"}'),
        200,
      ).kind,
    ).toBe('rate_limit');
  });
});
