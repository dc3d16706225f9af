import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { STAND_IN_KEY, startBedrockStandIn, type BedrockStandIn } from './support/bedrock-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * An AWS (33) channel served by the native Bedrock adapter, end to end with the `openai` SDK as the client: the
 * relay translates through canonical types to a SigV4-signed Converse call on the Bedrock stand-in and back.
 */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../src/providers/bedrock/__fixtures__/${name}`, import.meta.url), 'utf8'));

const MODEL = 'claude-3-5-sonnet-20241022';
const TITAN = 'amazon.titan-embed-text-v2:0';
const COHERE_EMBED = 'cohere.embed-english-v3';

let kit: RelayKit;
let standIn: BedrockStandIn;

beforeAll(async () => {
  standIn = await startBedrockStandIn();
  kit = await startRelayKit();
  await kit.createChannel({
    baseUrl: standIn.url,
    type: ChannelType.awsClaude,
    key: STAND_IN_KEY,
    models: `${MODEL},${TITAN},${COHERE_EMBED}`,
  });
  // Titan Text Embeddings V2 is priced built in: $0.02 per million tokens, model ratio 0.01.
});
afterAll(async () => {
  await kit.close();
  await standIn.close();
});
beforeEach(async () => {
  standIn.behaviour = {};
  standIn.requests.length = 0;
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newClient(quota = 1_000_000) {
  const user = await kit.createUser({ quota });
  const { key } = await kit.createKey(user.id);
  return { user, client: kit.client(key) };
}

const lastLog = () => kit.lastConsumeLog();

describe('an OpenAI client on an AWS Bedrock channel', () => {
  it('gets Converse’s answer and is billed the usage Bedrock reported, cache reads included', async () => {
    const { user, client } = await newClient();
    standIn.behaviour = { answer: fixture('converse-cache-usage.json') };
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'How much notice does the contract require?' },
      ],
      max_tokens: 50,
    });
    expect(completion.choices[0]).toMatchObject({
      message: {
        role: 'assistant',
        content: "The contract's termination clause requires 30 days' written notice.",
      },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 3202, completion_tokens: 90 });
    expect(standIn.requests[0]).toMatchObject({
      modelId: 'anthropic.claude-3-5-sonnet-20241022-v2:0',
      operation: 'converse',
      body: {
        messages: [{ role: 'user', content: [{ text: 'How much notice does the contract require?' }] }],
        system: [{ text: 'Be brief.' }],
        inferenceConfig: { maxTokens: 50 },
      },
    });
    expect(await lastLog()).toMatchObject({ user_id: user.id, prompt_tokens: 3202, completion_tokens: 90 });
  });

  // Converse answers name no model: the relay fills in the name the client asked for (OpenAI clients read it).
  it('names the model the client asked for in the answer', async () => {
    const { client } = await newClient();
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.model).toBe(MODEL);
  });

  it('streams ConverseStream’s event stream as chat chunks, with the usage chunk when asked', async () => {
    const { client } = await newClient();
    standIn.behaviour = { streamEvents: fixture('stream-text.json') as never, streamWriteSize: 5 };
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    let finishReason: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello! How can I help you today? ✓');
    expect(finishReason).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 11 });
    expect(standIn.requests[0]?.operation).toBe('converse-stream');
    expect(await lastLog()).toMatchObject({ prompt_tokens: 12, completion_tokens: 11, is_stream: 1 });
  });

  it('ends a stream that Bedrock interrupts with an exception event with an error, after the text so far', async () => {
    const { client } = await newClient();
    standIn.behaviour = { streamEvents: fixture('stream-throttling-exception.json') as never };
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Tell me a story' }],
      stream: true,
    });
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught as Error);
    expect(text).toBe('Once upon');
    // Bedrock's own words, as the error answer of a throttled request would have given them.
    expect(String(failure)).toContain('Too many tokens, please wait before trying again');
  });

  it('calls a tool and sends its result back as a toolResult under the call’s id', async () => {
    const { client } = await newClient();
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'top_song',
          parameters: { type: 'object', properties: { sign: { type: 'string' } } },
        },
      },
    ];
    const messages: Parameters<typeof client.chat.completions.create>[0]['messages'] = [
      { role: 'user', content: 'What is the most popular song on WZPZ?' },
    ];
    standIn.behaviour = { answer: fixture('converse-tool-use.json') };
    const first = await client.chat.completions.create({ model: MODEL, messages, tools });
    const call = first.choices[0]!.message.tool_calls?.[0];
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({
      id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
      function: { name: 'top_song', arguments: '{"sign":"WZPZ"}' },
    });
    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: call!.id,
      content: 'Elemental Hotel',
    });
    standIn.behaviour = {};
    await client.chat.completions.create({ model: MODEL, messages, tools });
    expect(standIn.requests[1]?.body.messages).toEqual([
      { role: 'user', content: [{ text: 'What is the most popular song on WZPZ?' }] },
      {
        role: 'assistant',
        content: [
          { text: "I'll look up the most popular song on WZPZ." },
          {
            toolUse: {
              toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
              name: 'top_song',
              input: { sign: 'WZPZ' },
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            toolResult: {
              toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
              content: [{ text: 'Elemental Hotel' }],
            },
          },
        ],
      },
    ]);
  });

  it('refuses n > 1 naming AWS Bedrock, before calling it and charging nothing', async () => {
    const { user, client } = await newClient(500_000);
    const error = (await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], n: 2 })
      .catch((caught: unknown) => caught)) as { status: number; message: string };
    expect(error.status).toBe(400);
    expect(error.message).toContain('AWS Bedrock does not support n > 1');
    expect(standIn.requests).toHaveLength(0);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('answers a signature AWS refuses as a channel failure, charging nothing', async () => {
    const { user, client } = await newClient(500_000);
    standIn.behaviour = {
      error: {
        status: 403,
        errorType: 'UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
      },
    };
    const error = (await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; code: string };
    expect(error.status).toBe(502);
    expect(error.code).toBe('channel_auth_failed');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });
});

describe('embeddings on an AWS Bedrock channel (InvokeModel)', () => {
  it('Titan Text Embeddings V2: a signed invoke with inputText, billed its inputTextTokenCount', async () => {
    const { client } = await newClient();
    const answer = await client.embeddings.create({
      model: TITAN,
      input: 'the quick brown fox',
      dimensions: 256,
      encoding_format: 'float',
    });
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0].embedding.length).toBeGreaterThan(0);
    expect(answer.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    const [request] = standIn.requests;
    expect(request).toMatchObject({
      rawPath: '/model/amazon.titan-embed-text-v2%3A0/invoke',
      modelId: TITAN,
      operation: 'invoke',
      body: { inputText: 'the quick brown fox', dimensions: 256, normalize: true },
    });
    expect(standIn.refusals).toEqual([]);
    const log = await lastLog();
    expect(log).toMatchObject({ model_name: TITAN, prompt_tokens: 4, completion_tokens: 0 });
    // 4 × 0.01 = 0.04 → at least 1
    expect(Number(log.quota)).toBe(1);
  });

  it('Cohere Embed on Bedrock: texts in one call; the SDK’s base64 decodes to what Bedrock answered', async () => {
    const { client } = await newClient();
    const answer = await client.embeddings.create({ model: COHERE_EMBED, input: ['alpha', 'beta gamma'] });
    expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
    expect(answer.data[0].embedding[0]).toBeCloseTo(5 / 7, 5);
    expect(standIn.requests[0]!.body).toEqual({
      texts: ['alpha', 'beta gamma'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
    // Cohere on Bedrock reports no tokens: the relay counts the input and says so in the answer.
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('refuses several inputs for Titan naming AWS Bedrock, before calling it', async () => {
    const { client } = await newClient();
    const refusal = await client.embeddings
      .create({ model: TITAN, input: ['a', 'b'] })
      .catch((error: unknown) => error as Error);
    expect(String((refusal as Error).message)).toContain(
      'AWS Bedrock does not support several inputs in one Titan embeddings request',
    );
    expect(standIn.requests).toEqual([]);
  });
});
