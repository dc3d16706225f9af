import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType, findChannelType, Role } from '@gatehouse/shared';
import { channelProviders } from '../src/providers/provider-registry';
import { startBaiduStandIn } from './support/baidu-stand-in';
import { STAND_IN_KEY, startBedrockStandIn } from './support/bedrock-stand-in';
import { startAnthropicStandIn } from './support/anthropic-stand-in';
import { startCohereStandIn } from './support/cohere-stand-in';
import {
  OPERATIONS,
  renderMatrix,
  writeMatrix,
  type Cell,
  type Operation,
  type Row,
} from './support/conformance-matrix';
import { startCozeStandIn } from './support/coze-stand-in';
import { startDashScopeStandIn } from './support/dashscope-stand-in';
import { startDeepLStandIn } from './support/deepl-stand-in';
import { GEMINI_STAND_IN_KEY, startGeminiStandIn } from './support/gemini-stand-in';
import { defaultAnswer as geminiAnswer } from './support/gemini-stand-in-answers';
import { startGoogleTokenStandIn } from './support/google-token-stand-in';
import { startOpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { startSparkStandIn } from './support/spark-stand-in';
import { startTencentStandIn } from './support/tencent-stand-in';
import { startVertexStandIn } from './support/vertex-stand-in';
import { createUserSession, type Session } from './test-app';

/**
 * The conformance matrix: every channel type of the registry × chat, stream, tools, vision, embeddings and
 * cache usage, each run through the real relay with the `openai` SDK against the type's local stand-in, and
 * written into docs/providers.md. A cell passes when the gateway answers the operation (tools and images also
 * reach the vendor in its own format; cache usage comes back as prompt_tokens_details.cached_tokens); it is
 * "not offered" when the relay refuses it before calling, saying why (the adapter lacks the endpoint, or the
 * vendor lacks the option).
 */

/** A local stand-in a channel type is run against. */
interface Rig {
  channel: { baseUrl: string; key: string; other?: string };
  /** the upstream model names the channel maps the matrix's names to */
  chatModel: string;
  /** the vendor's vision model, when its chat model reads text only */
  visionModel?: string;
  embeddingModel: string;
  /** the bodies the stand-in received, as text, to check what reached the vendor */
  bodies(): string[];
  /** why cache usage is not checked on this stand-in, when it is not */
  cacheUntested?: string;
  /** why the vendor reports no cache usage at all, when it has no prompt cache */
  cacheNotOffered?: string;
}

/** A 1×1 PNG: enough for a vendor's image part. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const TOOL_NAME = 'get_matrix_weather';

let kit: RelayKit;
let client: ReturnType<RelayKit['client']>;
const closers: (() => Promise<void>)[] = [];
const rigs = new Map<number, Rig>();
const channelIds = new Map<number, number>();
let admin: Session;

async function startRigs(): Promise<void> {
  const openAI = await startOpenAIUpstream('matrix', { usage: { prompt: 12, completion: 5, cached: 4 } });
  closers.push(openAI.close);
  const openAIBodies = () => openAI.received.map((request) => request.body.toString('utf8'));
  for (const [type, vendor] of Object.entries(channelProviders)) {
    if (!vendor.isSupported || !vendor.adapter.passThrough || vendor.adapter.protocol !== 'openai-chat')
      continue;
    // OpenAI-compatible types share one stand-in, each under its own base-URL prefix.
    rigs.set(Number(type), {
      channel: { baseUrl: `${openAI.url}/t${type}`, key: `sk-matrix-${type}`, other: 'matrix' },
      chatModel: 'gpt-4o-mini',
      embeddingModel: 'text-embedding-3-small',
      bodies: openAIBodies,
    });
  }

  const anthropic = await startAnthropicStandIn({ behaviour: { usage: { cache_read_input_tokens: 4 } } });
  closers.push(anthropic.close);
  rigs.set(ChannelType.anthropic, {
    channel: { baseUrl: anthropic.url, key: anthropic.apiKey },
    chatModel: 'claude-sonnet-4-5-20250929',
    embeddingModel: 'claude-sonnet-4-5-20250929',
    bodies: () => anthropic.received.map((request) => request.body.toString('utf8')),
  });

  const gemini = await startGeminiStandIn({
    answer: (request) => {
      const answer = geminiAnswer(request.body, request.model);
      return { ...answer, usageMetadata: { ...answer.usageMetadata, cachedContentTokenCount: 4 } };
    },
  });
  closers.push(gemini.close);
  rigs.set(ChannelType.gemini, {
    channel: { baseUrl: gemini.url, key: GEMINI_STAND_IN_KEY },
    chatModel: 'gemini-2.5-flash',
    embeddingModel: 'gemini-embedding-001',
    bodies: () => gemini.requests.map((request) => JSON.stringify(request.body)),
  });

  const bedrock = await startBedrockStandIn();
  bedrock.behaviour = {
    answer: {
      output: { message: { role: 'assistant', content: [{ text: 'Hello from the stand-in.' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 9, outputTokens: 5, totalTokens: 14, cacheReadInputTokens: 4 },
      metrics: { latencyMs: 3 },
    },
  };
  closers.push(bedrock.close);
  rigs.set(ChannelType.awsClaude, {
    channel: { baseUrl: bedrock.url, key: STAND_IN_KEY },
    chatModel: 'claude-3-5-sonnet-20241022',
    embeddingModel: 'amazon.titan-embed-text-v2:0',
    bodies: () => bedrock.requests.map((request) => JSON.stringify(request.body)),
  });

  const google = await startGoogleTokenStandIn();
  const vertex = await startVertexStandIn({
    project: 'gatehouse-matrix',
    location: 'us-east5',
    acceptedTokens: google.issued,
  });
  closers.push(google.close, vertex.close);
  const account = google.createServiceAccount({ projectId: 'gatehouse-matrix' });
  rigs.set(ChannelType.vertexAi, {
    channel: {
      baseUrl: vertex.url,
      key: ['us-east5', 'gatehouse-matrix', JSON.stringify(JSON.parse(account.json))].join('|'),
    },
    chatModel: 'gemini-2.5-flash',
    embeddingModel: 'text-embedding-005',
    bodies: () => vertex.requests.map((request) => JSON.stringify(request.body)),
  });
  // Gemini on Vertex reports context-cache reads as usageMetadata.cachedContentTokenCount.
  vertex.behaviour = { cachedTokens: 4 };

  const cohere = await startCohereStandIn();
  closers.push(cohere.close);
  rigs.set(ChannelType.cohere, {
    channel: { baseUrl: cohere.url, key: cohere.apiKey },
    chatModel: 'command-a-03-2025',
    embeddingModel: 'embed-v4.0',
    bodies: () => cohere.received.map((request) => JSON.stringify(request.json)),
  });
  // Cohere's v2 chat usage has cached_tokens: prompt tokens that hit its inference cache.
  cohere.behaviour = { cachedTokens: 4 };

  const coze = await startCozeStandIn();
  closers.push(coze.close);
  rigs.set(ChannelType.coze, {
    channel: { baseUrl: coze.url, key: coze.token },
    chatModel: `bot-${coze.botIds[0]}`,
    embeddingModel: `bot-${coze.botIds[0]}`,
    bodies: () => coze.received.map((request) => JSON.stringify(request.json)),
    cacheNotOffered:
      'Coze’s chat usage has no cached-token count (https://www.coze.com/docs/developer_guides/chat_v3)',
  });

  const spark = await startSparkStandIn();
  closers.push(spark.close);
  rigs.set(ChannelType.xunfei, {
    channel: { baseUrl: spark.url, key: `${spark.appId}|${spark.apiSecret}|${spark.apiKey}` },
    chatModel: 'generalv3.5',
    embeddingModel: 'generalv3.5',
    bodies: () => spark.frames.map((received) => JSON.stringify(received.frame)),
    cacheNotOffered: 'Spark’s usage has no cached-token count',
  });

  const baidu = await startBaiduStandIn();
  closers.push(baidu.close);
  rigs.set(ChannelType.baidu, {
    channel: { baseUrl: baidu.url, key: `${baidu.apiKey}|${baidu.secretKey}` },
    chatModel: 'ERNIE-4.0-8K',
    embeddingModel: 'Embedding-V1',
    bodies: () => baidu.received.map((request) => JSON.stringify(request.json)),
    cacheNotOffered: 'ERNIE’s usage has no cached-token count',
  });

  const tencent = await startTencentStandIn();
  closers.push(tencent.close);
  rigs.set(ChannelType.tencent, {
    channel: { baseUrl: tencent.url, key: tencent.key },
    chatModel: 'hunyuan-turbo',
    visionModel: 'hunyuan-vision',
    embeddingModel: 'hunyuan-embedding',
    bodies: () => tencent.received.map((request) => JSON.stringify(request.json)),
  });
  // Hunyuan's Usage has PromptTokensDetails.CachedTokens.
  tencent.behaviour = { cachedTokens: 4 };

  const dashScope = await startDashScopeStandIn();
  closers.push(dashScope.close);
  rigs.set(ChannelType.ali, {
    channel: { baseUrl: dashScope.url, key: dashScope.apiKey },
    chatModel: 'qwen-plus',
    visionModel: 'qwen-vl-plus',
    embeddingModel: 'text-embedding-v3',
    bodies: () => dashScope.received.map((request) => JSON.stringify(request.json)),
  });
  // DashScope's usage has prompt_tokens_details.cached_tokens for context-cache hits.
  dashScope.behaviour = { cachedTokens: 4 };

  const deepL = await startDeepLStandIn({ authKey: 'matrix-key:fx' });
  closers.push(deepL.close);
  rigs.set(ChannelType.deepl, {
    channel: { baseUrl: deepL.url, key: deepL.authKey },
    chatModel: 'deepl-zh',
    embeddingModel: 'deepl-zh',
    bodies: () => deepL.received.map((request) => JSON.stringify(request.json)),
    cacheNotOffered: 'DeepL translates and bills characters; it has no prompt cache',
  });
}

const modelOf = (type: number, operation: 'chat' | 'vision' | 'embed') => `matrix-${type}-${operation}`;

/** A marker in the prompt, to find this cell's request among the stand-in's. */
const markerOf = (type: number, operation: Operation) => `matrix cell ${type} ${operation.replace(' ', '-')}`;

async function runOperation(type: number, rig: Rig, operation: Operation): Promise<Cell> {
  const model = modelOf(type, 'chat');
  const marker = markerOf(type, operation);
  const sent = () => rig.bodies().find((body) => body.includes(marker)) ?? '';
  const messages = [{ role: 'user' as const, content: `${marker}: say hello` }];
  const fail = (reason: string): Cell => ({ result: 'fail', reason });
  switch (operation) {
    case 'chat': {
      const answer = await client.chat.completions.create({ model, messages });
      return answer.choices[0]?.message.content ? { result: 'pass' } : fail('the answer has no text');
    }
    case 'stream': {
      const stream = await client.chat.completions.create({ model, messages, stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text ? { result: 'pass' } : fail('the stream has no text');
    }
    case 'tools': {
      const answer = await client.chat.completions.create({
        model,
        messages,
        tools: [
          {
            type: 'function',
            function: {
              name: TOOL_NAME,
              description: 'The weather in a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
      });
      if (!sent().includes(TOOL_NAME)) return fail('the tool did not reach the vendor');
      return answer.choices.length > 0 ? { result: 'pass' } : fail('no answer');
    }
    case 'vision': {
      const answer = await client.chat.completions.create({
        model: modelOf(type, 'vision'),
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: `${marker}: what is in the picture?` },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            ],
          },
        ],
      });
      if (!sent().includes(PNG)) return fail('the image did not reach the vendor');
      return answer.choices.length > 0 ? { result: 'pass' } : fail('no answer');
    }
    case 'embeddings': {
      const answer = await client.embeddings.create({
        model: modelOf(type, 'embed'),
        input: marker,
        encoding_format: 'float',
      });
      return answer.data[0]?.embedding.length ? { result: 'pass' } : fail('no embedding');
    }
    case 'cache usage': {
      if (rig.cacheUntested) return { result: 'not tested', reason: rig.cacheUntested };
      if (rig.cacheNotOffered) return { result: 'not offered', reason: rig.cacheNotOffered };
      const answer = await client.chat.completions.create({ model, messages });
      const cached = answer.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      return cached > 0 ? { result: 'pass' } : fail('the usage has no cached tokens');
    }
  }
}

async function runCell(type: number, rig: Rig, operation: Operation): Promise<Cell> {
  try {
    return await runOperation(type, rig, operation);
  } catch (caught) {
    const error = caught as { code?: string | null; message?: string };
    const reason = String(error.message ?? caught)
      .replace(/^\d{3} /, '')
      .replace(/\s*\(request id: [^)]*\)/, '')
      .replace(/ \(the model is served here by [^)]*\)/, '');
    if (error.code === 'unsupported_option' || error.code === 'not_implemented') {
      return { result: 'not offered', reason };
    }
    return { result: 'fail', reason };
  }
}

async function runRow(type: number): Promise<Row> {
  const name = `${findChannelType(type)?.name ?? 'unknown'} (${type})`;
  const vendor = channelProviders[type as keyof typeof channelProviders];
  const rig = rigs.get(type);
  const all = (cell: Cell) => OPERATIONS.map(() => cell);
  if (!vendor.isSupported)
    return { type, name, cells: all({ result: 'not offered', reason: vendor.reason }) };
  if (!rig) return { type, name, cells: all({ result: 'not tested', reason: 'no local stand-in yet' }) };
  const cells = await Promise.all(OPERATIONS.map((operation) => runCell(type, rig, operation)));
  return { type, name, cells };
}

beforeAll(async () => {
  await startRigs();
  kit = await startRelayKit();
  await kit.test.context.options.set('RetryTimes', '0');
  const ratios: Record<string, number> = {};
  for (const [type, rig] of rigs) {
    ratios[modelOf(type, 'chat')] = 1;
    ratios[modelOf(type, 'vision')] = 1;
    ratios[modelOf(type, 'embed')] = 1;
    const id = await kit.createChannel({
      type,
      baseUrl: rig.channel.baseUrl,
      key: rig.channel.key,
      other: rig.channel.other,
      models: `${modelOf(type, 'chat')},${modelOf(type, 'vision')},${modelOf(type, 'embed')}`,
      modelMapping: {
        [modelOf(type, 'chat')]: rig.chatModel,
        [modelOf(type, 'vision')]: rig.visionModel ?? rig.chatModel,
        [modelOf(type, 'embed')]: rig.embeddingModel,
      },
    });
    channelIds.set(type, id);
  }
  admin = await createUserSession(kit.test, { role: Role.admin });
  await kit.test.context.options.set('ModelRatio', JSON.stringify(ratios));
  const user = await kit.createUser({ quota: 1_000_000_000 });
  client = kit.client((await kit.createKey(user.id)).key);
}, 60_000);
afterAll(async () => {
  await kit.close();
  for (const close of closers) await close();
});

describe('the conformance matrix', () => {
  it('runs every channel type with a stand-in through the relay and publishes the table', async () => {
    const types = Object.keys(channelProviders).map(Number);
    const rows: Row[] = [];
    for (let index = 0; index < types.length; index += 8) {
      rows.push(...(await Promise.all(types.slice(index, index + 8).map(runRow))));
    }
    await writeMatrix(renderMatrix(rows));
    const failures = rows.flatMap((row) =>
      row.cells.flatMap((cell, index) =>
        cell.result === 'fail' ? [`${row.name} ${OPERATIONS[index]}: ${cell.reason}`] : [],
      ),
    );
    expect(failures).toEqual([]);
  }, 120_000);

  it('passes the console’s channel Test for every type with a stand-in, native adapters included', async () => {
    const results = await Promise.all(
      [...channelIds].map(async ([type, id]) => {
        const response = await kit.test.app.inject({
          url: `/api/channel/test/${id}?model=${modelOf(type, 'chat')}`,
          headers: admin.headers,
        });
        const answer = response.json<{ success: boolean; message: string }>();
        return `${findChannelType(type)?.name ?? type}: ${answer.success ? 'ok' : answer.message}`;
      }),
    );
    expect(results.filter((result) => !result.endsWith(': ok'))).toEqual([]);
    for (const type of [
      ChannelType.anthropic,
      ChannelType.gemini,
      ChannelType.awsClaude,
      ChannelType.vertexAi,
      ChannelType.cohere,
    ]) {
      expect(channelIds.has(type)).toBe(true);
    }
  });
});
