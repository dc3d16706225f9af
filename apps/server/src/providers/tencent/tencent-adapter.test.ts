import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTencentStandIn, type TencentStandIn } from '../../../test/support/tencent-stand-in';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import { UpstreamReportedError, type CanonicalChatInput } from '../../canonical/translation';
import type { JsonRequestInput } from '../provider-types';
import { tencentAdapter, tencentTranslator } from './tencent-adapter';

let standIn: TencentStandIn;

beforeAll(async () => {
  standIn = await startTencentStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.behaviour = {};
  standIn.received.length = 0;
});

function inputOf(
  request: Partial<ChatRequest> = {},
  isStream = false,
  key = standIn.key,
): CanonicalChatInput {
  return {
    channel: { baseUrl: standIn.url, key, other: '', config: {} },
    request: { model: 'hunyuan-turbo', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel: 'hunyuan-turbo',
    isStream,
    clientHeaders: {},
  };
}

async function send(input: CanonicalChatInput) {
  const upstream = await tencentTranslator.buildRequest(input);
  return fetch(upstream.url, { method: 'POST', headers: upstream.headers, body: upstream.body });
}

async function call(input: CanonicalChatInput) {
  const response = await send(input);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

async function stream(input: CanonicalChatInput) {
  const response = await send(input);
  const decoder = tencentTranslator.createStreamDecoder();
  const chunks: ChatChunk[] = [];
  for await (const piece of response.body ?? []) chunks.push(...decoder.push(Buffer.from(piece)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const text = (chunks: ChatChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('');

describe('the Tencent translator against a stand-in that checks TC3 signatures', () => {
  it('sends a signed ChatCompletions call and reads the answer', async () => {
    const { status, body } = await call(
      inputOf({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      }),
    );
    expect(status).toBe(200);
    const { completion, usage } = tencentTranslator.readResponse(body);
    expect(completion.choices[0]!.message.content).toBe('Hello from hunyuan');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    const [received] = standIn.received;
    expect(received!.headers).toMatchObject({
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': '2023-09-01',
    });
    expect(received!.headers['x-tc-region']).toBeUndefined();
    expect(received!.json).toEqual({
      Model: 'hunyuan-turbo',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'Hi' },
      ],
      Stream: false,
    });
  });

  it('streams the text and the usage of the last event', async () => {
    const { chunks, usage } = await stream(inputOf({}, true));
    expect(text(chunks)).toBe('Hello from hunyuan');
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 5 });
  });

  it('makes a tool round trip, streamed', async () => {
    const tools: ChatRequest['tools'] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    const { chunks } = await stream(inputOf({ tools }, true));
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
                id: toolCall!.id!,
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: toolCall!.id!, content: '{"celsius":21}' },
        ],
      }),
    );
    expect(tencentTranslator.readResponse(body).completion.choices[0]!.message.content).toBe(
      'Hello from hunyuan',
    );
  });

  it('reads a wrong secret key’s refusal, answered with HTTP 200, as an authentication failure', async () => {
    const { status, body } = await call(inputOf({}, false, `1250000000|${standIn.secretId}|wrong`));
    expect(status).toBe(200);
    expect(() => tencentTranslator.readResponse(body)).toThrow(UpstreamReportedError);
    expect(() => tencentTranslator.readResponse(body)).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ kind: 'authentication', code: 'AuthFailure.SignatureFailure' }),
      }),
    );
  });

  it('throws an empty balance answered to a stream request as insufficient_quota', async () => {
    standIn.behaviour = {
      error: { Code: 'ResourceInsufficient.ChargeResourceExhaust', Message: '计费资源已耗尽。' },
    };
    await expect(stream(inputOf({}, true))).rejects.toMatchObject({
      details: { kind: 'insufficient_quota' },
    });
  });

  it('replays a recorded transcript', async () => {
    standIn.behaviour = { fixture: { sse: 'stream-reasoning.sse' } };
    const { chunks } = await stream(inputOf({}, true));
    expect(
      chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.reasoning_content ?? '')).join(''),
    ).toBe('用户在问候。');
  });

  it('sends the region the channel’s config names', async () => {
    await call({
      ...inputOf(),
      channel: { baseUrl: standIn.url, key: standIn.key, other: '', config: { region: 'ap-guangzhou' } },
    });
    expect(standIn.received.at(-1)!.headers['x-tc-region']).toBe('ap-guangzhou');
  });

  it('serves OpenAI embeddings through GetEmbedding', async () => {
    const body = { model: 'hunyuan-embedding', input: ['one', 'three'] };
    const input: JsonRequestInput = {
      channel: { baseUrl: standIn.url, key: standIn.key, other: '', config: {} },
      body,
      rawBody: Buffer.from(JSON.stringify(body)),
      upstreamModel: 'hunyuan-embedding',
      isModelMapped: false,
    };
    const upstream = await tencentAdapter.embeddings!.buildRequest(input);
    const response = await fetch(upstream.url, {
      method: 'POST',
      headers: upstream.headers,
      body: upstream.body,
    });
    const read = tencentAdapter.embeddings!.readResponse(Buffer.from(await response.arrayBuffer()), input);
    expect(standIn.received.at(-1)!.headers['x-tc-action']).toBe('GetEmbedding');
    expect(standIn.received.at(-1)!.json).toEqual({ InputList: ['one', 'three'] });
    expect(read.answer).toMatchObject({
      object: 'list',
      model: 'hunyuan-embedding',
      data: [{ index: 0, embedding: [0.3, 0.5] }, { index: 1 }],
    });
    expect(read.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
  });
});

describe('the Tencent adapter', () => {
  it('translates every client and has no credential to prepare', () => {
    expect(tencentAdapter).toMatchObject({ protocol: 'tencent-hunyuan', wireFormat: 'tencent-hunyuan' });
    expect(tencentAdapter.passThrough).toBeUndefined();
    expect(tencentAdapter.prepareCredential).toBeUndefined();
  });
});
