import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import {
  GEMINI_STAND_IN_KEY,
  geminiErrors,
  startGeminiStandIn,
  type GeminiStandIn,
} from './support/gemini-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * A Gemini channel served by the native Gemini adapter, end to end with the `openai` SDK as the client:
 * the relay translates through canonical types to generateContent on the Gemini stand-in and back.
 */

let kit: RelayKit;
let standIn: GeminiStandIn;

beforeAll(async () => {
  standIn = await startGeminiStandIn();
  kit = await startRelayKit();
  await kit.createChannel({
    baseUrl: standIn.url,
    type: ChannelType.gemini,
    key: GEMINI_STAND_IN_KEY,
    models: 'gemini-2.5-flash,gemini-embedding-001',
  });
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

/** The user's last consumption log (a request of an earlier test may settle later: it counts tokens). */
async function lastLog(userId: number) {
  const [log] = await kit.consumeLogs(userId);
  if (!log) throw new Error(`user ${userId} has no consumption log`);
  return log;
}

describe('an OpenAI client on a Gemini channel', () => {
  it('gets generateContent’s answer and is billed the usage Gemini reported', async () => {
    const { user, client } = await newClient();
    const completion = await client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 50,
    });
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Hello from the Gemini stand-in (gemini-2.5-flash).' },
      finish_reason: 'stop',
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 6 });
    const [sent] = standIn.requests;
    expect(sent).toMatchObject({
      method: 'generateContent',
      model: 'gemini-2.5-flash',
      apiKey: GEMINI_STAND_IN_KEY,
    });
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { maxOutputTokens: 50 },
    });
    expect(await lastLog(user.id)).toMatchObject({ prompt_tokens: 4, completion_tokens: 6 });
  });

  it('streams, with the usage chunk when asked', async () => {
    const { user, client } = await newClient();
    const stream = await client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from the Gemini stand-in (gemini-2.5-flash).');
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 6 });
    expect(standIn.requests[0].query.get('alt')).toBe('sse');
    expect(await lastLog(user.id)).toMatchObject({ prompt_tokens: 2, completion_tokens: 6, is_stream: 1 });
  });

  it('calls a tool and sends its result back under the call’s name and id', async () => {
    const { client } = await newClient();
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      },
    ];
    const messages: Parameters<typeof client.chat.completions.create>[0]['messages'] = [
      { role: 'user', content: 'Weather in Paris?' },
    ];
    const first = await client.chat.completions.create({ model: 'gemini-2.5-flash', messages, tools });
    const call = first.choices[0].message.tool_calls?.[0];
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({
      id: 'stand-in-call-1',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call!.id, content: '{"temp":21}' });
    standIn.behaviour = {
      answer: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'It is 21°C.' }] }, finishReason: 'STOP' }],
      },
    };
    const second = await client.chat.completions.create({ model: 'gemini-2.5-flash', messages, tools });
    expect(second.choices[0].message.content).toBe('It is 21°C.');
    expect(standIn.requests[1].body?.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'stand-in-call-1', name: 'get_weather', args: { city: 'Paris' } } }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'stand-in-call-1', name: 'get_weather', response: { temp: 21 } } }],
      },
    ]);
  });

  it('gets thoughts as reasoning_content and cached and thought tokens in the usage, billed', async () => {
    const { user, client } = await newClient();
    standIn.behaviour = {
      answer: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text: 'Weighing it up.', thought: true, thoughtSignature: 'c2ln' }, { text: 'Yes.' }],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: {
          promptTokenCount: 100,
          cachedContentTokenCount: 60,
          candidatesTokenCount: 10,
          thoughtsTokenCount: 20,
          totalTokenCount: 130,
        },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'r1',
      },
    };
    const completion = await client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Is it?' }],
      reasoning_effort: 'low',
    });
    const message = completion.choices[0].message as (typeof completion.choices)[0]['message'] & {
      reasoning_content?: string;
    };
    expect(message.content).toBe('Yes.');
    expect(message.reasoning_content).toBe('Weighing it up.');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 30,
      prompt_tokens_details: { cached_tokens: 60 },
      completion_tokens_details: { reasoning_tokens: 20 },
    });
    expect(standIn.requests[0].body?.generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
    expect(await lastLog(user.id)).toMatchObject({ prompt_tokens: 100, completion_tokens: 30 });
  });

  it('streams a tool call whole, with the cached and thought tokens in the usage chunk', async () => {
    const { user, client } = await newClient();
    const usageMetadata = {
      promptTokenCount: 50,
      cachedContentTokenCount: 32,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 8,
      totalTokenCount: 63,
    };
    standIn.behaviour = {
      streamEvents: [
        {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'Checking.', thought: true }] }, index: 0 },
          ],
          usageMetadata: { promptTokenCount: 50 },
        },
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  {
                    functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris' } },
                    thoughtSignature: 'c2ln',
                  },
                ],
              },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata,
        },
      ],
    };
    const stream = await client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls: Array<{ id?: string; name?: string; arguments: string }> = [];
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[delta.index] ??= { arguments: '' };
        if (delta.id) calls[delta.index].id = delta.id;
        if (delta.function?.name) calls[delta.index].name = delta.function.name;
        calls[delta.index].arguments += delta.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(calls).toEqual([
      { id: 'fc-1__thought__c2ln', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(finish).toBe('tool_calls');
    expect(usage).toMatchObject({
      prompt_tokens: 50,
      completion_tokens: 13,
      prompt_tokens_details: { cached_tokens: 32 },
      completion_tokens_details: { reasoning_tokens: 8 },
    });
    expect(await lastLog(user.id)).toMatchObject({ prompt_tokens: 50, completion_tokens: 13, is_stream: 1 });
  });

  it('answers a channel key Google refuses as a channel failure, charging nothing', async () => {
    const { user, client } = await newClient(500_000);
    standIn.behaviour = { error: geminiErrors.apiKeyInvalid };
    const error = (await client.chat.completions
      .create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; code: string; message: string };
    expect(error.status).toBe(502);
    expect(error.code).toBe('channel_auth_failed');
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(500_000);
  });

  it('gets embeddings from the native Gemini API, with the tokens the relay counted as their usage', async () => {
    const { user, client } = await newClient();
    const answer = await client.embeddings.create({
      model: 'gemini-embedding-001',
      input: ['one two three', 'four'],
      encoding_format: 'float',
    });
    expect(answer.data.map((each) => each.index)).toEqual([0, 1]);
    expect(answer.model).toBe('gemini-embedding-001');
    expect(standIn.requests.at(-1)?.method).toBe('batchEmbedContents');
    // batchEmbedContents reports no usage: the client sees the count it is billed for.
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
    const log = await lastLog(user.id);
    expect(log.prompt_tokens).toBe(answer.usage.prompt_tokens);
  });
});
