import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCohereStandIn, type CohereStandIn } from '../../../test/support/cohere-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import type { CanonicalChatInput } from '../../canonical/translation';
import type { JsonRequestInput } from '../provider-types';
import { cohereAdapter, cohereEmbeddings, cohereTranslator, readError } from './cohere-adapter';

let standIn: CohereStandIn;

beforeAll(async () => {
  standIn = await startCohereStandIn({ apiKey: 'co-test' });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.received.length = 0;
});

function inputOf(request: Partial<ChatRequest>, isStream = false, key = 'co-test'): CanonicalChatInput {
  return {
    channel: { baseUrl: standIn.url, key, other: '', config: {} },
    request: { model: 'command', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel: 'command-a-03-2025',
    isStream,
    clientHeaders: {},
  };
}

/** Sends what the translator builds over a real socket. */
async function send(input: CanonicalChatInput) {
  const upstream = await cohereTranslator.buildRequest(input);
  return fetch(upstream.url, {
    method: upstream.method ?? 'POST',
    headers: upstream.headers,
    body: upstream.body,
  });
}

async function call(input: CanonicalChatInput) {
  const response = await send(input);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** Feeds the stream to the decoder as the network delivers it. */
async function stream(input: CanonicalChatInput) {
  const response = await send(input);
  const decoder = cohereTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('the Cohere adapter against a stand-in speaking the v2 API', () => {
  it('sends the key and a valid body to /v2/chat, and reads the JSON answer with billed usage', async () => {
    const { status, body } = await call(inputOf({ temperature: 0.2 }));
    expect(status).toBe(200);
    const { completion, usage } = cohereTranslator.readResponse(body);
    expect(completion.choices[0].message.content).toBe('Hello from cohere');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    const [received] = standIn.received;
    expect(received.url).toBe('/v2/chat');
    expect(received.json).toMatchObject({ model: 'command-a-03-2025', stream: false, temperature: 0.2 });
  });

  it('streams a tool call and sends its result back in the next turn', async () => {
    const { chunks } = await stream(inputOf({ tools: [weatherTool] }, true));
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls[0]).toMatchObject({ id: 'get_weather_standin01', function: { name: 'get_weather' } });
    expect(calls.map((piece) => piece.function?.arguments ?? '').join('')).toBe('{"city":"Paris"}');

    const { chunks: answer, usage } = await stream(
      inputOf(
        {
          tools: [weatherTool],
          messages: [
            { role: 'user', content: 'Weather?' },
            {
              role: 'assistant',
              content: 'I will call a tool.',
              tool_calls: [
                {
                  id: 'get_weather_standin01',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                },
              ],
            },
            { role: 'tool', tool_call_id: 'get_weather_standin01', content: 'sunny' },
          ],
        },
        true,
      ),
    );
    const text = answer
      .flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ''))
      .join('');
    expect(text).toBe('Hello from cohere');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    expect(standIn.received[1].json?.messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'get_weather_standin01',
      content: 'sunny',
    });
  });

  it('reads a refused key as an authentication failure', async () => {
    const { status, body } = await call(inputOf({}, false, 'wrong'));
    expect(status).toBe(401);
    expect(readError(body, status)).toMatchObject({ kind: 'authentication', message: 'invalid api token' });
    standIn.behaviour = { error: { status: 402, message: 'Please add or update your payment method' } };
    const billing = await call(inputOf({}));
    expect(cohereAdapter.readError(billing.body, billing.status).kind).toBe('insufficient_quota');
  });

  it('serves OpenAI embeddings over /v2/embed, in the encoding the client asked for', async () => {
    const input: JsonRequestInput = {
      channel: { baseUrl: standIn.url, key: 'co-test', other: '', config: {} },
      body: { model: 'embed', input: ['hello', 'hi'], encoding_format: 'base64' },
      rawBody: Buffer.from(''),
      upstreamModel: 'embed-v4.0',
      isModelMapped: true,
    };
    const upstream = cohereEmbeddings.buildRequest(input);
    const response = await fetch(upstream.url, {
      method: 'POST',
      headers: upstream.headers,
      body: upstream.body,
    });
    const answer = cohereEmbeddings.readResponse(Buffer.from(await response.arrayBuffer()), input);
    expect(standIn.received[0].json).toMatchObject({ texts: ['hello', 'hi'], input_type: 'search_document' });
    expect(answer.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
    const parsed = JSON.parse(answer.body.toString('utf8')) as {
      model: string;
      data: Array<{ embedding: string }>;
    };
    expect(parsed.model).toBe('embed');
    const bytes = Buffer.from(parsed.data[0].embedding, 'base64');
    expect(bytes.readFloatLE(4)).toBe(0.5);
  });
});
