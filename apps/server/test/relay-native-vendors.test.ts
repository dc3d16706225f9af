import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startCohereStandIn, type CohereStandIn } from './support/cohere-stand-in';
import { startCozeStandIn, type CozeStandIn } from './support/coze-stand-in';
import { startDeepLStandIn, type DeepLStandIn } from './support/deepl-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { startSparkStandIn, type SparkStandIn } from './support/spark-stand-in';

/**
 * Coze (34), DeepL (38), iFlytek Spark (18) and Cohere (35) channels end to end: the `openai` SDK against the
 * gateway, the relay translating for each vendor's native adapter, the vendor's local stand-in behind it.
 * Spark goes over its WebSocket through the adapter's transport.
 */

let kit: RelayKit;
let coze: CozeStandIn;
let deepL: DeepLStandIn;
let spark: SparkStandIn;
let cohere: CohereStandIn;

beforeAll(async () => {
  [coze, deepL, spark, cohere] = await Promise.all([
    startCozeStandIn({ token: 'pat_e2e' }),
    startDeepLStandIn({ authKey: 'e2e-key:fx' }),
    startSparkStandIn(),
    startCohereStandIn({ apiKey: 'co-e2e' }),
  ]);
  kit = await startRelayKit();
  // Bot ids, Spark's token packages and embed-v4.0 have no list price: an administrator prices them.
  await kit.test.context.options.set(
    'ModelRatio',
    JSON.stringify({ 'bot-7379462189365198898': 1, 'generalv3.5': 1, lite: 1, 'embed-v4.0': 0.05 }),
  );
  await kit.createChannel({
    type: ChannelType.coze,
    baseUrl: coze.url,
    key: 'pat_e2e',
    models: 'bot-7379462189365198898',
  });
  await kit.createChannel({
    type: ChannelType.deepl,
    baseUrl: deepL.url,
    key: 'e2e-key:fx',
    models: 'deepl-zh',
  });
  await kit.createChannel({
    type: ChannelType.xunfei,
    baseUrl: spark.url,
    key: `${spark.appId}|${spark.apiSecret}|${spark.apiKey}`,
    models: 'generalv3.5',
  });
  await kit.createChannel({
    type: ChannelType.xunfei,
    baseUrl: spark.url,
    key: spark.apiPassword,
    models: 'lite',
  });
  await kit.createChannel({
    type: ChannelType.cohere,
    baseUrl: cohere.url,
    key: 'co-e2e',
    models: 'embed-v4.0',
  });
});
afterAll(async () => {
  await kit.close();
  await Promise.all([coze.close(), deepL.close(), spark.close(), cohere.close()]);
});
beforeEach(async () => {
  spark.behaviour = {};
  await kit.test.context.options.set('RetryTimes', '0');
});

async function newClient() {
  const user = await kit.createUser({ quota: 10_000_000 });
  const { key } = await kit.createKey(user.id);
  return kit.client(key);
}

const lastLog = () => kit.lastConsumeLog();

async function streamText(stream: AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>) {
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

const messages = [{ role: 'user' as const, content: 'Hello, world!' }];

describe('OpenAI clients on native vendor channels', () => {
  it('Coze: a bot answers, streamed and not, billed the chat usage', async () => {
    const client = await newClient();
    const completion = await client.chat.completions.create({ model: 'bot-7379462189365198898', messages });
    expect(completion.choices[0].message.content).toBe('Hello from coze');
    expect(completion.usage?.completion_tokens).toBe(3);
    expect((await lastLog()).completion_tokens).toBe(3);
    const stream = await client.chat.completions.create({
      model: 'bot-7379462189365198898',
      messages,
      stream: true,
    });
    expect(await streamText(stream)).toBe('Hello from coze');
  });

  it('DeepL: the model’s language is the translation’s, billed in characters', async () => {
    const client = await newClient();
    const completion = await client.chat.completions.create({ model: 'deepl-zh', messages });
    expect(completion.choices[0].message.content).toBe('你好，世界！');
    const log = await lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([13, 0]);
    const stream = await client.chat.completions.create({ model: 'deepl-zh', messages, stream: true });
    expect(await streamText(stream)).toBe('你好，世界！');
  });

  it('iFlytek Spark over its WebSocket: streamed and not, billed the last frame’s usage', async () => {
    const client = await newClient();
    const stream = await client.chat.completions.create({ model: 'generalv3.5', messages, stream: true });
    expect(await streamText(stream)).toBe('Hello from spark');
    expect(spark.frames.at(-1)?.path).toBe('/v3.5/chat');
    const completion = await client.chat.completions.create({ model: 'generalv3.5', messages });
    expect(completion.choices[0].message.content).toBe('Hello from spark');
    expect((await lastLog()).completion_tokens).toBe(3);
  });

  it('iFlytek Spark: a licence refused in the first frame is the channel’s credentials refused, with Spark’s words', async () => {
    const client = await newClient();
    spark.behaviour = { errorCode: 11200 };
    const error = (await client.chat.completions
      .create({ model: 'generalv3.5', messages })
      .catch((e) => e)) as Error;
    expect(error.message).toContain(
      "The iFlytek Spark channel's credentials were refused by the upstream (HTTP 401)",
    );
    expect(error.message).toContain('(11200)');
  });

  it('iFlytek Spark with an APIPassword key: the HTTP API, the domain as model', async () => {
    const client = await newClient();
    const completion = await client.chat.completions.create({ model: 'lite', messages });
    expect(completion.choices[0].message.content).toBe('lite says hi');
  });

  it('Cohere embeddings: the SDK’s base64 floats decode to what Cohere answered', async () => {
    const client = await newClient();
    const answer = await client.embeddings.create({ model: 'embed-v4.0', input: ['hello'] });
    expect(answer.data[0].embedding).toEqual([0.5, 0.5, -0.25]);
    expect(answer.usage.prompt_tokens).toBe(2);
  });
});
