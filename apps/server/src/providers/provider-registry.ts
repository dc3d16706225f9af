import { ChannelType, findChannelType, parseChannelConfig, removeTrailingSlashes } from '@gatehouse/shared';
import { ai360Vendor } from './ai360/ai360-vendor';
import { aiProxyLibraryVendor } from './ai-proxy-library/ai-proxy-library-vendor';
import { aliVendor } from './ali/ali-vendor';
import { anthropicVendor } from './anthropic/anthropic-vendor';
import { azureVendor } from './azure/azure-vendor';
import { baichuanVendor } from './baichuan/baichuan-vendor';
import { baiduVendor } from './baidu/baidu-vendor';
import { bedrockVendor } from './bedrock/bedrock-vendor';
import { cloudflareVendor } from './cloudflare/cloudflare-vendor';
import { cohereVendor } from './cohere/cohere-vendor';
import { cozeVendor } from './coze/coze-vendor';
import { customVendor } from './custom/custom-vendor';
import { deepLVendor } from './deepl/deepl-vendor';
import { deepSeekVendor } from './deepseek/deepseek-vendor';
import { doubaoVendor } from './doubao/doubao-vendor';
import { fastGptVendor } from './fastgpt/fastgpt-vendor';
import { geminiVendor } from './gemini/gemini-vendor';
import { groqVendor } from './groq/groq-vendor';
import { lingYiWanWuVendor } from './lingyiwanwu/lingyiwanwu-vendor';
import { miniMaxVendor } from './minimax/minimax-vendor';
import { mistralVendor } from './mistral/mistral-vendor';
import { moonshotVendor } from './moonshot/moonshot-vendor';
import { novitaVendor } from './novita/novita-vendor';
import { ollamaVendor } from './ollama/ollama-vendor';
import { openAIVendor } from './openai/openai-vendor';
import { openRouterVendor } from './openrouter/openrouter-vendor';
import { palmVendor } from './palm/palm-vendor';
import type { ChannelCredentials } from './provider-types';
import { proxyVendor } from './proxy/proxy-vendor';
import { siliconFlowVendor } from './siliconflow/siliconflow-vendor';
import { stepFunVendor } from './stepfun/stepfun-vendor';
import { tencentVendor } from './tencent/tencent-vendor';
import { togetherVendor } from './together/together-vendor';
import type { VendorDescriptor } from './vendor-descriptor';
import { vertexAiVendor } from './vertex-ai/vertex-ai-vendor';
import { xunfeiVendor } from './xunfei/xunfei-vendor';
import { zhipuVendor } from './zhipu/zhipu-vendor';

export type ChannelTypeId = (typeof ChannelType)[keyof typeof ChannelType];

/** The relay's name for what serves a channel type: its vendor's descriptor. */
export type ChannelProvider = VendorDescriptor;

/**
 * Every channel type the console offers, and the vendor folder that serves it. The record's key type makes a
 * forgotten type a compile error; adding a vendor is its folder and its line here. Several types may share a
 * vendor (the OpenAI resellers share OpenAI's).
 */
export const channelProviders: Record<ChannelTypeId, VendorDescriptor> = {
  [ChannelType.openai]: openAIVendor,
  [ChannelType.api2d]: openAIVendor,
  [ChannelType.azure]: azureVendor,
  [ChannelType.closeai]: openAIVendor,
  [ChannelType.openaiSb]: openAIVendor,
  [ChannelType.openaiMax]: openAIVendor,
  [ChannelType.ohMyGpt]: openAIVendor,
  [ChannelType.custom]: customVendor,
  [ChannelType.ails]: openAIVendor,
  [ChannelType.aiProxy]: openAIVendor,
  [ChannelType.palm]: palmVendor,
  [ChannelType.api2gpt]: openAIVendor,
  [ChannelType.aigc2d]: openAIVendor,
  [ChannelType.anthropic]: anthropicVendor,
  [ChannelType.baidu]: baiduVendor,
  [ChannelType.zhipu]: zhipuVendor,
  [ChannelType.ali]: aliVendor,
  [ChannelType.xunfei]: xunfeiVendor,
  [ChannelType.ai360]: ai360Vendor,
  [ChannelType.openRouter]: openRouterVendor,
  [ChannelType.aiProxyLibrary]: aiProxyLibraryVendor,
  [ChannelType.fastGpt]: fastGptVendor,
  [ChannelType.tencent]: tencentVendor,
  [ChannelType.gemini]: geminiVendor,
  [ChannelType.moonshot]: moonshotVendor,
  [ChannelType.baichuan]: baichuanVendor,
  [ChannelType.minimax]: miniMaxVendor,
  [ChannelType.mistral]: mistralVendor,
  [ChannelType.groq]: groqVendor,
  [ChannelType.ollama]: ollamaVendor,
  [ChannelType.lingYiWanWu]: lingYiWanWuVendor,
  [ChannelType.stepFun]: stepFunVendor,
  [ChannelType.awsClaude]: bedrockVendor,
  [ChannelType.coze]: cozeVendor,
  [ChannelType.cohere]: cohereVendor,
  [ChannelType.deepseek]: deepSeekVendor,
  [ChannelType.cloudflare]: cloudflareVendor,
  [ChannelType.deepl]: deepLVendor,
  [ChannelType.togetherAi]: togetherVendor,
  [ChannelType.doubao]: doubaoVendor,
  [ChannelType.novita]: novitaVendor,
  [ChannelType.vertexAi]: vertexAiVendor,
  [ChannelType.proxy]: proxyVendor,
  [ChannelType.siliconFlow]: siliconFlowVendor,
};

export function findChannelProvider(type: number): VendorDescriptor | null {
  return (channelProviders as Record<number, VendorDescriptor | undefined>)[type] ?? null;
}

/** Every vendor once, in registry order. */
export function listVendors(): VendorDescriptor[] {
  return [...new Set(Object.values(channelProviders))];
}

/** The channel's own base URL, else its type's default (shared channelTypes), without a trailing slash. */
export function resolveChannelCredentials(channel: {
  type: number;
  base_url: string;
  key: string;
  other: string;
  config?: string;
}): ChannelCredentials {
  const baseUrl = channel.base_url.trim() || findChannelType(channel.type)?.defaultBaseUrl || '';
  return {
    baseUrl: removeTrailingSlashes(baseUrl),
    key: channel.key.trim(),
    other: channel.other,
    config: (parseChannelConfig(channel.config ?? '') ?? {}) as Readonly<Record<string, string>>,
  };
}
