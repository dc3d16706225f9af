import type { ChannelCredentials } from '../provider-types';
import { createOpenAICompatibleAdapter } from '../openai-compatible/openai-compatible-adapter';

/** The console's default Base URL for Baidu, the host of the v1 API. */
const V1_HOST = 'https://aip.baidubce.com';
/** Qianfan's v2 API (https://cloud.baidu.com/doc/qianfan-api/s/3m7of64lb): OpenAI's paths below /v2. */
const V2_HOST = 'https://qianfan.baidubce.com';

/** A channel left on the v1 host reaches v2 at Baidu's v2 host; any other Base URL (a proxy, a stand-in) serves both. */
export function qianfanV2BaseUrl(channel: Pick<ChannelCredentials, 'baseUrl'>): string {
  return channel.baseUrl === '' || channel.baseUrl === V1_HOST ? V2_HOST : channel.baseUrl;
}

/**
 * Qianfan's OpenAI-compatible v2 API, for channels whose key is one Qianfan API key (no `|`): the
 * OpenAI-compatible adapter's chat translator and embeddings, the key as a bearer token.
 */
export const qianfanV2 = createOpenAICompatibleAdapter({
  wireFormat: 'qianfan-v2',
  buildUrl: (channel, path) => `${qianfanV2BaseUrl(channel)}/v2${path}`,
  buildHeaders: (channel) => ({ authorization: `Bearer ${channel.key}` }),
  supportsStreamUsage: () => true,
  omit: ['completions', 'moderations', 'images', 'audioSpeech', 'audioTranscriptions', 'audioTranslations'],
});
