import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GEMINI_STAND_IN_KEY,
  geminiErrors,
  readGeminiFixture,
  startGeminiStandIn,
  type GeminiStandIn,
} from '../../../test/support/gemini-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import type { SseEvent } from '../provider-types';
import {
  buildGeminiEmbedRequest,
  convertGeminiEmbedResponse,
  createGeminiEmbeddingsCapability,
  geminiAdapter,
  geminiTranslator,
  readGeminiError,
} from './gemini-adapter';

const channelAt = (baseUrl: string, other = ''): TranslatorChannel => ({
  baseUrl,
  key: GEMINI_STAND_IN_KEY,
  other,
  config: {},
});

const chat = (fields: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Say hello' }],
  ...fields,
});

async function build(channel: TranslatorChannel, isStream: boolean, request = chat()) {
  return geminiTranslator.buildRequest({
    channel,
    request,
    upstreamModel: 'gemini-2.5-flash',
    isStream,
    clientHeaders: {},
  });
}

const call = (upstream: UpstreamHttpRequest) =>
  fetch(upstream.url, { method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body });

describe('where and how the Gemini adapter calls', () => {
  it('posts to generateContent, or streamGenerateContent with alt=sse, with the key in a header only', async () => {
    const json = await build(channelAt('https://generativelanguage.googleapis.com'), false);
    expect(json.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(json.headers).toEqual({
      'x-goog-api-key': GEMINI_STAND_IN_KEY,
      'content-type': 'application/json',
    });
    expect(JSON.parse(String(json.body))).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
    });
    const stream = await build(channelAt('https://proxy.example/gemini/v1beta'), true);
    expect(stream.url).toBe(
      'https://proxy.example/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(stream.url).not.toContain(GEMINI_STAND_IN_KEY);
    const v1 = await build(channelAt('https://generativelanguage.googleapis.com', 'v1'), false);
    expect(v1.url).toBe(
      'https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash:generateContent',
    );
  });
});

describe('the Gemini provider adapter', () => {
  it('speaks the gemini protocol and reads Google’s errors with their kind', () => {
    expect(geminiAdapter.protocol).toBe('gemini');
    expect(geminiAdapter.translator).toBe(geminiTranslator);
    expect(geminiAdapter.readError(readGeminiFixture('error-unavailable.json'), 503).kind).toBe('overloaded');
  });

  it('embeds over batchEmbedContents, answering in the encoding the OpenAI client asked for', async () => {
    const body = { model: 'gemini-embedding-001', input: ['a', 'b'], encoding_format: 'base64' };
    const input = {
      channel: channelAt('https://generativelanguage.googleapis.com'),
      body,
      rawBody: Buffer.from(JSON.stringify(body)),
      upstreamModel: 'gemini-embedding-001',
      isModelMapped: false,
    };
    const request = await geminiAdapter.embeddings!.buildRequest(input);
    expect(request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents',
    );
    expect(request.headers['x-goog-api-key']).toBe(GEMINI_STAND_IN_KEY);
    const answer = geminiAdapter.embeddings!.readResponse(
      Buffer.from(JSON.stringify({ embeddings: [{ values: [0.5] }, { values: [0.25] }] })),
      input,
    );
    const embeddings = JSON.parse(answer.body.toString()).data.map((each: { embedding: string }) =>
      Buffer.from(each.embedding, 'base64').readFloatLE(0),
    );
    expect(embeddings).toEqual([0.5, 0.25]);
    expect(geminiAdapter.images).toBeDefined();
    expect(geminiAdapter.completions).toBeUndefined();
  });

  it('forwards a Gemini client’s countTokens, naming the mapped model inside a whole request', () => {
    const body = {
      generateContentRequest: { model: 'models/fast', contents: [{ parts: [{ text: 'hi' }] }] },
    };
    const request = geminiAdapter.countTokens!.buildRequest({
      channel: channelAt('https://generativelanguage.googleapis.com'),
      body,
      rawBody: Buffer.from(JSON.stringify(body)),
      upstreamModel: 'gemini-2.5-flash',
      isModelMapped: true,
      isStream: false,
      clientHeaders: {},
    });
    expect(request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens',
    );
    expect(JSON.parse(String(request.body)).generateContentRequest.model).toBe('models/gemini-2.5-flash');
    expect(() => geminiAdapter.countTokens!.readResponse(Buffer.from('{"total":1}'))).toThrow(/totalTokens/);
  });
});

describe('the Gemini adapter against the Gemini stand-in', () => {
  let standIn: GeminiStandIn;
  beforeAll(async () => {
    standIn = await startGeminiStandIn();
  });
  afterAll(() => standIn.close());

  it('gets a chat answer with its usage', async () => {
    standIn.behaviour = {};
    const response = await call(await build(channelAt(standIn.url), false));
    expect(response.status).toBe(200);
    const { completion, usage } = geminiTranslator.readResponse(Buffer.from(await response.arrayBuffer()));
    expect(completion.choices[0].message.content).toBe('Hello from the Gemini stand-in (gemini-2.5-flash).');
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 6 });
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'generateContent', apiKey: GEMINI_STAND_IN_KEY });
  });

  it('streams a recorded transcript through the decoder as it arrives', async () => {
    standIn.behaviour = { streamBody: readGeminiFixture('stream-function-call.sse') };
    const response = await call(await build(channelAt(standIn.url), true));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const decoder = geminiTranslator.createStreamDecoder();
    const chunks: ChatChunk[] = [];
    for await (const bytes of response.body!) chunks.push(...decoder.push(Buffer.from(bytes)));
    chunks.push(...decoder.end());
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('tool_calls');
    expect(decoder.usage()).toEqual({ promptTokens: 61, completionTokens: 92, reasoningTokens: 68 });
  });

  it('streams its own answer one word per event, and a function call when tools are offered', async () => {
    standIn.behaviour = {};
    const read = async (request: ChatRequest) => {
      const response = await call(await build(channelAt(standIn.url), true, request));
      const decoder = geminiTranslator.createStreamDecoder();
      const chunks = decoder.push(Buffer.from(await response.arrayBuffer()));
      return { chunks: [...chunks, ...decoder.end()], usage: decoder.usage() };
    };
    const text = await read(chat());
    expect(text.chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe(
      'Hello from the Gemini stand-in (gemini-2.5-flash).',
    );
    expect(text.usage).toEqual({ promptTokens: 2, completionTokens: 6 });
    const tools = await read(chat({ tools: [{ type: 'function', function: { name: 'get_weather' } }] }));
    expect(tools.chunks.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? [])).toEqual([
      {
        index: 0,
        id: 'stand-in-call-1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });

  it('reads Google’s errors: a wrong key, quota, overload', async () => {
    standIn.behaviour = {};
    const wrongKey = await call(await build({ ...channelAt(standIn.url), key: 'AIza-wrong' }, false));
    expect(wrongKey.status).toBe(400);
    expect(readGeminiError(Buffer.from(await wrongKey.arrayBuffer()), wrongKey.status).kind).toBe(
      'authentication',
    );
    for (const [error, kind] of [
      [geminiErrors.resourceExhausted, 'rate_limit'],
      [geminiErrors.unavailable, 'overloaded'],
      [geminiErrors.permissionDenied, 'permission'],
    ] as const) {
      standIn.behaviour = { error };
      const response = await call(await build(channelAt(standIn.url), false));
      expect(response.status).toBe(error.error.code);
      expect(readGeminiError(Buffer.from(await response.arrayBuffer()), response.status).kind).toBe(kind);
    }
  });

  it('embeds through batchEmbedContents', async () => {
    standIn.behaviour = {};
    const upstream = buildGeminiEmbedRequest(
      channelAt(standIn.url),
      { model: 'text-embedding-3-small', input: ['a', 'bb'], dimensions: 3 },
      'gemini-embedding-001',
    );
    expect(upstream.url).toBe(`${standIn.url}/v1beta/models/gemini-embedding-001:batchEmbedContents`);
    const response = await call(upstream);
    const { response: embeddings, usage } = convertGeminiEmbedResponse(
      Buffer.from(await response.arrayBuffer()),
      {
        model: 'text-embedding-3-small',
      },
    );
    expect(embeddings.data.map((each) => (each.embedding as number[]).length)).toEqual([3, 3]);
    expect(usage).toBeNull();
  });

  it('passes a Gemini client’s stream through untouched, usage read on the side', async () => {
    standIn.behaviour = {};
    const rawBody = Buffer.from('{"contents":[{"role":"user","parts":[{"text":"Say hello"}]}]}');
    const upstream = geminiAdapter.passThrough!.buildRequest({
      channel: channelAt(standIn.url),
      body: JSON.parse(rawBody.toString('utf8')),
      rawBody,
      upstreamModel: 'gemini-2.5-flash',
      isModelMapped: true,
      isStream: true,
      clientHeaders: {},
    });
    const response = await call(upstream);
    const bytes = Buffer.from(await response.arrayBuffer());
    const splitter = new SseEventSplitter();
    const reader = geminiAdapter.passThrough!.createStreamReader({ clientWantsUsage: false });
    const events: SseEvent[] = [...splitter.pushEvents(bytes), ...splitter.endEvents()];
    const forwarded = events.flatMap((event) => reader.readEvent(event));
    expect(forwarded).toEqual(events);
    expect(standIn.requests.at(-1)?.body).toEqual(JSON.parse(rawBody.toString('utf8')));
    expect(reader.finish().usage).toEqual({ promptTokens: 2, completionTokens: 6 });
  });

  it('answers OpenAI embeddings as the client asked them, given the request', async () => {
    standIn.behaviour = {};
    const capability = createGeminiEmbeddingsCapability();
    const body = { model: 'text-embedding-3-small', input: ['a', 'bb'], encoding_format: 'base64' };
    const input = {
      channel: channelAt(standIn.url),
      body,
      rawBody: Buffer.from(JSON.stringify(body)),
      upstreamModel: 'gemini-embedding-001',
      isModelMapped: true,
    };
    const response = await call(capability.buildRequest(input));
    const read = capability.readResponse(Buffer.from(await response.arrayBuffer()), input);
    const answer = JSON.parse(read.body.toString('utf8'));
    expect(answer.model).toBe('text-embedding-3-small');
    expect(typeof answer.data[0].embedding).toBe('string');
    expect(read.usage).toBeNull();
  });
});
