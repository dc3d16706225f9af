import { ChannelType, channelKeyFormats, findChannelType, removeTrailingSlashes } from '@gatehouse/shared';
import type { ChannelCredentials, ProviderAdapter } from './provider-types';
import { azureAdapter } from './azure/azure-adapter';
import { cloudflareAdapter } from './cloudflare/cloudflare-adapter';
import {
  createOpenAICompatibleAdapter,
  prefixedLayout,
  type OpenAICompatibleLayout,
} from './openai-compatible/openai-compatible-adapter';

export type ChannelTypeId = (typeof ChannelType)[keyof typeof ChannelType];

/**
 * A channel type is a vendor (its default base URL and key format); its adapter is the wire format it speaks.
 * Types whose wire format has no adapter yet say why, and the relay answers that instead of calling them.
 */
export type ChannelProvider =
  | { isSupported: true; adapter: ProviderAdapter; keyFormat: string }
  | { isSupported: false; reason: string; keyFormat: string };

const API_KEY = 'API key';

type Endpoint = NonNullable<OpenAICompatibleLayout['omit']>[number];
const allEndpoints: Endpoint[] = [
  'completions',
  'embeddings',
  'moderations',
  'images',
  'audioSpeech',
  'audioTranscriptions',
  'audioTranslations',
];

/** An OpenAI-compatible vendor at `{base}{prefix}` that offers chat plus the listed endpoints. */
function openAICompatible(wireFormat: string, prefix: string, offers: Endpoint[] | 'all'): ChannelProvider {
  const omit = offers === 'all' ? [] : allEndpoints.filter((endpoint) => !offers.includes(endpoint));
  return {
    isSupported: true,
    adapter: createOpenAICompatibleAdapter({ ...prefixedLayout(wireFormat, prefix), omit }),
    keyFormat: API_KEY,
  };
}

/** The OpenAI API itself and the resellers that mirror all of it under /v1. */
const openAI = openAICompatible('openai', '/v1', 'all');

function pendingNativeAdapter(vendor: string, type: number): ChannelProvider {
  return {
    isSupported: false,
    reason: `${vendor} channels need a native adapter that this version of Gatehouse does not have yet`,
    keyFormat: channelKeyFormats[type] ?? API_KEY,
  };
}

/**
 * Every channel type of SPEC §9. The record's key type makes a forgotten type a compile error. Vendor endpoints
 * were checked against each vendor's OpenAI-compatibility documentation.
 */
export const channelProviders: Record<ChannelTypeId, ChannelProvider> = {
  [ChannelType.openai]: openAI,
  [ChannelType.api2d]: openAI,
  [ChannelType.azure]: {
    isSupported: true,
    adapter: azureAdapter,
    keyFormat: 'API key of the Azure OpenAI resource',
  },
  [ChannelType.closeai]: openAI,
  [ChannelType.openaiSb]: openAI,
  [ChannelType.openaiMax]: openAI,
  [ChannelType.ohMyGpt]: openAI,
  [ChannelType.custom]: openAI,
  [ChannelType.ails]: openAI,
  [ChannelType.aiProxy]: openAI,
  [ChannelType.palm]: pendingNativeAdapter('Google PaLM2', ChannelType.palm),
  [ChannelType.api2gpt]: openAI,
  [ChannelType.aigc2d]: openAI,
  // https://docs.anthropic.com/en/api/openai-sdk — chat only, until the native Messages adapter arrives.
  [ChannelType.anthropic]: openAICompatible('anthropic-openai-compatible', '/v1', []),
  [ChannelType.baidu]: pendingNativeAdapter('Baidu Wenxin', ChannelType.baidu),
  // https://open.bigmodel.cn/dev/api — the v4 API speaks the OpenAI format with the API key as bearer.
  [ChannelType.zhipu]: openAICompatible('zhipu', '/api/paas/v4', ['embeddings', 'images']),
  // https://help.aliyun.com/zh/model-studio/compatibility-of-openai-with-dashscope
  [ChannelType.ali]: openAICompatible('dashscope', '/compatible-mode/v1', ['embeddings']),
  [ChannelType.xunfei]: pendingNativeAdapter('iFlytek Spark', ChannelType.xunfei),
  [ChannelType.ai360]: openAICompatible('360', '/v1', ['embeddings']),
  [ChannelType.openRouter]: openAICompatible('openrouter', '/v1', ['completions']),
  [ChannelType.aiProxyLibrary]: pendingNativeAdapter('AI Proxy knowledge base', ChannelType.aiProxyLibrary),
  // FastGPT's OpenAPI takes `apikey-appId` as the bearer token (SPEC §5 key format).
  [ChannelType.fastGpt]: { ...openAICompatible('fastgpt', '/v1', []), keyFormat: 'APIKey-AppId' },
  [ChannelType.tencent]: pendingNativeAdapter('Tencent Hunyuan', ChannelType.tencent),
  // https://ai.google.dev/gemini-api/docs/openai
  [ChannelType.gemini]: openAICompatible('gemini-openai-compatible', '/v1beta/openai', [
    'embeddings',
    'images',
  ]),
  [ChannelType.moonshot]: openAICompatible('moonshot', '/v1', []),
  [ChannelType.baichuan]: openAICompatible('baichuan', '/v1', ['embeddings']),
  // https://platform.minimax.io/docs/api-reference/text-openai-api
  [ChannelType.minimax]: openAICompatible('minimax', '/v1', []),
  [ChannelType.mistral]: openAICompatible('mistral', '/v1', ['embeddings']),
  // https://console.groq.com/docs/openai — the default base URL already ends in /openai.
  [ChannelType.groq]: openAICompatible('groq', '/v1', [
    'audioSpeech',
    'audioTranscriptions',
    'audioTranslations',
  ]),
  // https://github.com/ollama/ollama/blob/main/docs/openai.md
  [ChannelType.ollama]: openAICompatible('ollama', '/v1', ['completions', 'embeddings']),
  [ChannelType.lingYiWanWu]: openAICompatible('01-ai', '/v1', []),
  [ChannelType.stepFun]: openAICompatible('stepfun', '/v1', ['images', 'audioSpeech', 'audioTranscriptions']),
  [ChannelType.awsClaude]: pendingNativeAdapter('AWS Bedrock', ChannelType.awsClaude),
  [ChannelType.coze]: pendingNativeAdapter('Coze', ChannelType.coze),
  // https://docs.cohere.com/docs/compatibility-api
  [ChannelType.cohere]: openAICompatible('cohere', '/compatibility/v1', ['embeddings']),
  [ChannelType.deepseek]: openAICompatible('deepseek', '/v1', []),
  [ChannelType.cloudflare]: {
    isSupported: true,
    adapter: cloudflareAdapter,
    keyFormat: 'API token (account id in "other")',
  },
  [ChannelType.deepl]: pendingNativeAdapter('DeepL', ChannelType.deepl),
  [ChannelType.togetherAi]: openAICompatible('together', '/v1', ['completions', 'embeddings', 'images']),
  // https://www.volcengine.com/docs/82379/1298454
  [ChannelType.doubao]: openAICompatible('doubao', '/api/v3', ['embeddings', 'images']),
  // The default base URL already ends in /v3/openai: https://novita.ai/docs/guides/llm-api
  [ChannelType.novita]: openAICompatible('novita', '', ['completions', 'embeddings']),
  [ChannelType.vertexAi]: pendingNativeAdapter('Vertex AI', ChannelType.vertexAi),
  [ChannelType.proxy]: {
    isSupported: false,
    reason: 'Proxy channels forward raw requests and are not served by the /v1 endpoints',
    keyFormat: API_KEY,
  },
  [ChannelType.siliconFlow]: openAICompatible('siliconflow', '/v1', [
    'embeddings',
    'images',
    'audioSpeech',
    'audioTranscriptions',
  ]),
};

export function findChannelProvider(type: number): ChannelProvider | null {
  return (channelProviders as Record<number, ChannelProvider | undefined>)[type] ?? null;
}

/** The channel's own base URL, else its type's default (shared channelTypes), without a trailing slash. */
export function resolveChannelCredentials(channel: {
  type: number;
  base_url: string;
  key: string;
  other: string;
}): ChannelCredentials {
  const baseUrl = channel.base_url.trim() || findChannelType(channel.type)?.defaultBaseUrl || '';
  return { baseUrl: removeTrailingSlashes(baseUrl), key: channel.key.trim(), other: channel.other };
}
