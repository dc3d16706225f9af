import { ApiError, GoogleGenAI, type Content } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { GEMINI_STAND_IN_KEY, startGeminiStandIn, type GeminiStandIn } from './support/gemini-stand-in';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * The Gemini API's paths (/v1beta) end to end with `@google/genai` pointed at the gateway, on both lanes: a
 * Gemini model on a Gemini channel (the Gemini stand-in; the client's body passes through) and a GPT model on
 * an OpenAI channel (the OpenAI stand-in; translated through the canonical types and back).
 */
let kit: RelayKit;
let gemini: GeminiStandIn;
let openAI: OpenAIUpstream;

const GEMINI = 'gemini-2.5-flash';
const GEMINI_EMBEDDING = 'gemini-embedding-001';
const GPT = 'gpt-4o-mini';
const GPT_EMBEDDING = 'text-embedding-3-small';

beforeAll(async () => {
  gemini = await startGeminiStandIn();
  openAI = await startOpenAIUpstream('gpt');
  kit = await startRelayKit();
  await kit.createChannel({
    type: ChannelType.gemini,
    baseUrl: gemini.url,
    key: GEMINI_STAND_IN_KEY,
    models: `${GEMINI},${GEMINI_EMBEDDING}`,
  });
  await kit.createChannel({ upstream: openAI, models: `${GPT},${GPT_EMBEDDING}` });
  await kit.test.context.options.set(
    'ModelRatio',
    JSON.stringify({ [GEMINI]: 0.15, [GEMINI_EMBEDDING]: 0.075, [GPT]: 0.075, [GPT_EMBEDDING]: 0.01 }),
  );
}, 120_000);
afterAll(async () => {
  await kit.close();
  await gemini.close();
  await openAI.close();
});
beforeEach(async () => {
  gemini.behaviour = {};
  gemini.requests.length = 0;
  openAI.behaviour = {};
  openAI.received.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newClient(quota = 10_000_000) {
  const user = await kit.createUser({ quota });
  const { key } = await kit.createKey(user.id);
  const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: kit.gatewayUrl } });
  return { user, key, client };
}

const weather = {
  name: 'get_weather',
  description: 'The weather of a city',
  parametersJsonSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

const lanes = [
  {
    lane: 'a Gemini channel (pass-through)',
    model: GEMINI,
    embeddingModel: GEMINI_EMBEDDING,
    isNative: true,
    text: `Hello from the Gemini stand-in (${GEMINI}).`,
  },
  {
    lane: 'an OpenAI channel (translated)',
    model: GPT,
    embeddingModel: GPT_EMBEDDING,
    isNative: false,
    text: 'Hello from gpt',
  },
] as const;

describe.each(lanes)('a @google/genai client on $lane', ({ model, embeddingModel, isNative, text }) => {
  it('generates content and is billed the usage the upstream reported', async () => {
    const { user, client } = await newClient();
    if (!isNative) openAI.behaviour = { usage: { prompt: 30, completion: 7 } };
    const response = await client.models.generateContent({
      model,
      contents: 'Say hello',
      config: { systemInstruction: 'Be brief.', maxOutputTokens: 100, temperature: 0.5 },
    });
    expect(response.text).toBe(text);
    expect(response.candidates?.[0].finishReason).toBe('STOP');
    const [prompt, completion] = isNative ? [4, 6] : [30, 7];
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: prompt,
      candidatesTokenCount: completion,
      totalTokenCount: prompt + completion,
    });
    if (isNative) {
      // The client's own body went upstream: only the URL and the key changed.
      expect(gemini.requests[0]).toMatchObject({
        method: 'generateContent',
        model,
        apiKey: GEMINI_STAND_IN_KEY,
      });
      expect(gemini.requests[0].body).toEqual({
        contents: [{ parts: [{ text: 'Say hello' }], role: 'user' }],
        systemInstruction: { parts: [{ text: 'Be brief.' }], role: 'user' },
        generationConfig: { maxOutputTokens: 100, temperature: 0.5 },
      });
    } else {
      expect(openAI.received[0].json).toMatchObject({
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hello' },
        ],
        max_tokens: 100,
        temperature: 0.5,
      });
    }
    const [log] = await kit.consumeLogs(user.id);
    expect(log).toMatchObject({ model_name: model, prompt_tokens: prompt, completion_tokens: completion });
    expect(log.content).toContain('gemini client');
  });

  it('streams content as server-sent events, the usage on the last response', async () => {
    const { user, client } = await newClient();
    const stream = await client.models.generateContentStream({ model, contents: 'Say hello' });
    let streamed = '';
    let last: Awaited<ReturnType<typeof stream.next>>['value'] = undefined;
    for await (const chunk of stream) {
      streamed += chunk.text ?? '';
      last = chunk;
    }
    expect(streamed).toBe(text);
    expect(last?.candidates?.[0].finishReason).toBe('STOP');
    const [prompt, completion] = isNative ? [2, 6] : [12, 5];
    expect(last?.usageMetadata).toMatchObject({ promptTokenCount: prompt, candidatesTokenCount: completion });
    if (isNative) expect(gemini.requests[0].query.get('alt')).toBe('sse');
    else
      expect(openAI.received[0].json).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
    const [log] = await kit.consumeLogs(user.id);
    expect(log).toMatchObject({ prompt_tokens: prompt, completion_tokens: completion, is_stream: 1 });
  });

  it('calls a function and sends its result back under the call’s name and id', async () => {
    const { client } = await newClient();
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }];
    const first = await client.models.generateContent({
      model,
      contents,
      config: { tools: [{ functionDeclarations: [weather] }] },
    });
    const [call] = first.functionCalls ?? [];
    expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(call.id).toBe(isNative ? 'stand-in-call-1' : 'call_1');
    contents.push(first.candidates![0].content!, {
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name!, response: { output: '21°C' } } }],
    });
    const second = await client.models.generateContent({ model, contents });
    expect(second.text).toBe(text);
    if (isNative) {
      expect(gemini.requests[1].body?.contents).toEqual([
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        {
          role: 'model',
          parts: [{ functionCall: { id: 'stand-in-call-1', name: 'get_weather', args: { city: 'Paris' } } }],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: { id: 'stand-in-call-1', name: 'get_weather', response: { output: '21°C' } },
            },
          ],
        },
      ]);
    } else {
      expect(openAI.received[0].json?.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: weather.parametersJsonSchema,
          },
        },
      ]);
      expect(openAI.received[1].json?.messages).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '21°C' },
      ]);
    }
  });

  it('streams a function call whole', async () => {
    const { client } = await newClient();
    const stream = await client.models.generateContentStream({
      model,
      contents: 'Weather in Paris?',
      config: { tools: [{ functionDeclarations: [weather] }] },
    });
    const calls = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([
      { id: isNative ? 'stand-in-call-1' : 'call_1', name: 'get_weather', args: { city: 'Paris' } },
    ]);
  });

  it('embeds content, one text and a batch', async () => {
    const { user, client } = await newClient();
    const single = await client.models.embedContent({ model: embeddingModel, contents: 'hello world' });
    expect(single.embeddings).toHaveLength(1);
    expect(single.embeddings?.[0].values?.length).toBeGreaterThan(0);
    const batch = await client.models.embedContent({
      model: embeddingModel,
      contents: ['one', 'two words', 'three short words'],
      config: { outputDimensionality: 3 },
    });
    expect(batch.embeddings).toHaveLength(3);
    if (isNative) {
      expect(batch.embeddings?.map((embedding) => embedding.values?.length)).toEqual([3, 3, 3]);
      expect(gemini.requests.at(-1)).toMatchObject({ method: 'batchEmbedContents', model: embeddingModel });
    } else {
      expect(batch.embeddings?.[0].values).toEqual([0.1, 0.2, 0.3]);
      expect(openAI.received.at(-1)?.json).toMatchObject({
        model: embeddingModel,
        input: ['one', 'two words', 'three short words'],
        dimensions: 3,
        encoding_format: 'float',
      });
    }
    const logs = await kit.consumeLogs(user.id);
    expect(logs).toHaveLength(2);
    expect(logs[0].model_name).toBe(embeddingModel);
  });

  it('counts tokens without billing them', async () => {
    const { user, client } = await newClient();
    const before = await kit.userQuota(user.id);
    const counted = await client.models.countTokens({ model, contents: 'one two three four' });
    if (isNative) {
      expect(counted.totalTokens).toBe(4);
      expect(gemini.requests[0]).toMatchObject({ method: 'countTokens', model });
    } else {
      expect(counted.totalTokens).toBeGreaterThan(4);
      expect(openAI.received).toHaveLength(0);
    }
    expect(await kit.consumeLogs(user.id)).toHaveLength(0);
    expect(await kit.userQuota(user.id)).toBe(before);
  });

  it('lists the key’s models', async () => {
    const { client } = await newClient();
    const names: string[] = [];
    for await (const entry of await client.models.list()) names.push(entry.name ?? '');
    expect(names).toEqual(expect.arrayContaining([`models/${model}`, `models/${embeddingModel}`]));
    const one = await client.models.get({ model });
    expect(one).toMatchObject({
      name: `models/${model}`,
      supportedActions: expect.arrayContaining(['generateContent']),
    });
  });
});

describe('errors for a @google/genai client', () => {
  async function caught(promise: Promise<unknown>): Promise<ApiError> {
    const error = await promise.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it('refuses a key the gateway does not know with 401 UNAUTHENTICATED (API_KEY_INVALID)', async () => {
    const client = new GoogleGenAI({ apiKey: 'sk-not-a-key', httpOptions: { baseUrl: kit.gatewayUrl } });
    const error = await caught(client.models.generateContent({ model: GEMINI, contents: 'hi' }));
    expect(error.status).toBe(401);
    const body = JSON.parse(error.message) as {
      error: { status: string; details: Array<{ reason: string }> };
    };
    expect(body.error.status).toBe('UNAUTHENTICATED');
    expect(body.error.details[0].reason).toBe('API_KEY_INVALID');
    expect(gemini.requests).toHaveLength(0);
  });

  it('answers a model no channel serves with 404 NOT_FOUND', async () => {
    const { client } = await newClient();
    const error = await caught(client.models.generateContent({ model: 'gemini-9-ultra', contents: 'hi' }));
    expect(error.status).toBe(404);
    expect(error.message).toContain('NOT_FOUND');
  });

  it('refuses a malformed body with 400 INVALID_ARGUMENT naming the field, before any upstream call', async () => {
    const { key } = await newClient();
    const response = await fetch(`${kit.gatewayUrl}/v1beta/models/${GEMINI}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'system', parts: [{ text: 'hi' }] }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toContain("'contents[0].role'");
    expect(gemini.requests).toHaveLength(0);
  });

  it.each([
    ['POST', ':generateContent'],
    ['GET', ''],
  ])('reads a model name holding a percent sign (%s) as one, without a 500', async (method, action) => {
    const { key } = await newClient();
    // The router has decoded the path once: `%25` is a literal "%", not the start of another escape.
    const response = await fetch(`${kit.gatewayUrl}/v1beta/models/gemini-100%25${action}`, {
      method,
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }) } : {}),
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(body.error.message).toContain('gemini-100%');
  });

  it('answers an unknown path in Google’s shape', async () => {
    const response = await fetch(`${kit.gatewayUrl}/v1beta/cachedContents`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('passes an upstream rate limit on as 429 RESOURCE_EXHAUSTED', async () => {
    const { client } = await newClient();
    openAI.behaviour = { error: { status: 429, message: 'Slow down', type: 'rate_limit_error' } };
    const error = await caught(client.models.generateContent({ model: GPT, contents: 'hi' }));
    expect(error.status).toBe(429);
    expect(error.message).toContain('RESOURCE_EXHAUSTED');
  });
});

describe.each(lanes)('a REST client on $lane', ({ model, text }) => {
  it('takes the key as ?key= and streams a JSON array without alt=sse', async () => {
    const { key } = await newClient();
    const response = await fetch(
      `${kit.gatewayUrl}/v1beta/models/${model}:streamGenerateContent?key=${encodeURIComponent(key)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'Say hello' }] }] }),
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const responses = (await response.json()) as Array<{
      candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }>;
      usageMetadata?: unknown;
    }>;
    expect(Array.isArray(responses)).toBe(true);
    const streamed = responses
      .flatMap((each) => each.candidates?.[0]?.content?.parts ?? [])
      .map((part) => part.text ?? '')
      .join('');
    expect(streamed).toBe(text);
    expect(responses.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(responses.at(-1)?.usageMetadata).toBeDefined();
  });
});
