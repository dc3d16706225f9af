import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDashScopeStandIn, type DashScopeStandIn } from '../../../test/support/dashscope-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { CanonicalChatInput } from '../../canonical/translation';
import type { JsonRequestInput } from '../provider-types';
import { dashScopeAdapter, dashScopeTranslator, readError } from './dashscope-adapter';

let standIn: DashScopeStandIn;

beforeAll(async () => {
  standIn = await startDashScopeStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.received.length = 0;
});

function inputOf(
  request: Partial<ChatRequest> = {},
  options: { isStream?: boolean; model?: string; key?: string; plugin?: string } = {},
): CanonicalChatInput {
  return {
    channel: {
      baseUrl: standIn.url,
      key: options.key ?? standIn.apiKey,
      other: options.plugin ?? '',
      config: {},
    },
    request: { model: 'qwen-plus', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel: options.model ?? 'qwen-plus',
    isStream: options.isStream ?? false,
    clientHeaders: {},
  };
}

async function send(input: CanonicalChatInput) {
  const upstream = await dashScopeTranslator.buildRequest(input);
  return fetch(upstream.url, { method: 'POST', headers: upstream.headers, body: upstream.body });
}

async function call(input: CanonicalChatInput) {
  const response = await send(input);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

async function stream(input: CanonicalChatInput) {
  const response = await send(input);
  const decoder = dashScopeTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const text = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('');

describe('the DashScope translator against a stand-in speaking the native API', () => {
  it('calls text-generation with the bearer key and reads the answer', async () => {
    const { status, body } = await call(inputOf());
    expect(status).toBe(200);
    const { completion, usage } = dashScopeTranslator.readResponse(body);
    expect(completion.choices[0]!.message.content).toBe('Hello from qwen');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    const [received] = standIn.received;
    expect(received!.path).toBe('/api/v1/services/aigc/text-generation/generation');
    expect(received!.headers['x-dashscope-plugin']).toBeUndefined();
    expect(received!.json).toEqual({
      model: 'qwen-plus',
      input: { messages: [{ role: 'user', content: 'Hi' }] },
      parameters: { result_format: 'message' },
    });
  });

  it('streams incrementally over X-DashScope-SSE', async () => {
    const { chunks, usage } = await stream(inputOf({}, { isStream: true }));
    expect(text(chunks)).toBe('Hello from qwen');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    expect(standIn.received[0]!.headers['x-dashscope-sse']).toBe('enable');
  });

  it('makes a streamed tool round trip', async () => {
    const tools: ChatRequest['tools'] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    const { chunks } = await stream(inputOf({ tools }, { isStream: true }));
    const [toolCall] = chunks.flatMap((chunk) =>
      chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []),
    );
    expect(toolCall).toMatchObject({
      id: 'call_standin01',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    const { body } = await call(
      inputOf({
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_standin01',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_standin01', content: '{"celsius":21}' },
        ],
      }),
    );
    expect(dashScopeTranslator.readResponse(body).completion.choices[0]!.message.content).toBe(
      'Hello from qwen',
    );
  });

  it('sends images to a -vl model on multimodal-generation, streamed', async () => {
    const { chunks } = await stream(
      inputOf(
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image_url', image_url: { url: 'https://example.com/dog.jpeg' } },
                { type: 'text', text: 'What is it?' },
              ],
            },
          ],
        },
        { isStream: true, model: 'qwen-vl-max' },
      ),
    );
    expect(text(chunks)).toBe('Hello from qwen');
    const [received] = standIn.received;
    expect(received!.path).toBe('/api/v1/services/aigc/multimodal-generation/generation');
    expect((received!.json!.input as { messages: unknown[] }).messages[0]).toEqual({
      role: 'user',
      content: [{ image: 'https://example.com/dog.jpeg' }, { text: 'What is it?' }],
    });
  });

  it('sends the channel’s plugin field and a -internet model’s web search', async () => {
    await call(inputOf({}, { model: 'qwen-max-internet', plugin: '{"pdf_extracter":{}}' }));
    const [received] = standIn.received;
    expect(received!.headers['x-dashscope-plugin']).toBe('{"pdf_extracter":{}}');
    expect(received!.json).toMatchObject({ model: 'qwen-max', parameters: { enable_search: true } });
  });

  it.each([
    [401, 'InvalidApiKey', 'authentication'],
    [429, 'Throttling.RateQuota', 'rate_limit'],
    [400, 'Arrearage', 'insufficient_quota'],
    [400, 'DataInspectionFailed', 'invalid_request'],
  ])('answers HTTP %i %s, read as %s', async (status, code, kind) => {
    standIn.behaviour = { error: { status, code, message: `${code} from the stand-in` } };
    const answer = await call(inputOf());
    expect(answer.status).toBe(status);
    expect(readError(answer.body, answer.status)).toMatchObject({ kind, code });
  });

  it('refuses a wrong key as DashScope does', async () => {
    const answer = await call(inputOf({}, { key: 'sk-wrong' }));
    expect(answer.status).toBe(401);
    expect(readError(answer.body, 401)).toMatchObject({
      kind: 'authentication',
      message: 'Invalid API-key provided.',
    });
  });

  it('replays a recorded transcript with an error event', async () => {
    standIn.behaviour = { fixture: { sse: 'stream-error-event.sse' } };
    await expect(stream(inputOf({}, { isStream: true }))).rejects.toMatchObject({
      details: { code: 'DataInspectionFailed' },
    });
  });

  it('serves OpenAI embeddings through text-embedding', async () => {
    const body = { model: 'text-embedding-v3', input: ['one', 'three'], dimensions: 512 };
    const input: JsonRequestInput = {
      channel: { baseUrl: standIn.url, key: standIn.apiKey, other: '', config: {} },
      body,
      rawBody: Buffer.from(JSON.stringify(body)),
      upstreamModel: 'text-embedding-v3',
      isModelMapped: false,
    };
    const upstream = await dashScopeAdapter.embeddings!.buildRequest(input);
    const response = await fetch(upstream.url, {
      method: 'POST',
      headers: upstream.headers,
      body: upstream.body,
    });
    const read = dashScopeAdapter.embeddings!.readResponse(Buffer.from(await response.arrayBuffer()), input);
    expect(standIn.received.at(-1)!.json).toEqual({
      model: 'text-embedding-v3',
      input: { texts: ['one', 'three'] },
      parameters: { dimension: 512 },
    });
    expect(read.answer).toMatchObject({
      object: 'list',
      model: 'text-embedding-v3',
      data: [{ index: 0, embedding: [0.3, 0.5] }, { index: 1 }],
      usage: { prompt_tokens: 4 },
    });
    expect(read.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
  });
});

describe('the DashScope adapter', () => {
  it('translates every client and serves chat and embeddings', () => {
    expect(dashScopeAdapter).toMatchObject({ protocol: 'dashscope', wireFormat: 'dashscope' });
    expect(dashScopeAdapter.passThrough).toBeUndefined();
    expect(dashScopeAdapter.embeddings).toBeDefined();
  });
});
