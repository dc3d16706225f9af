import type { CanonicalChatInput, TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import { findBaiduChatEndpoint } from './baidu-endpoints';
import { parseBaiduKey } from './baidu-key';
import { qianfanV2 } from './baidu-qianfan-v2';
import { BAIDU } from './baidu-wire-types';
import { convertToBaiduRequest } from './convert-to-baidu-request';

/** `{base}/rpc/2.0/ai_custom/v1/wenxinworkshop/{kind}/{endpoint}?access_token=…`, the v1 API's layout. */
export function buildBaiduV1Url(
  channel: TranslatorChannel,
  kind: 'chat' | 'embeddings',
  endpoint: string,
): string {
  if (!channel.accessToken) {
    throw new Error(`${BAIDU} needs an access token from prepareCredential before calling the v1 API`);
  }
  const token = encodeURIComponent(channel.accessToken);
  return `${channel.baseUrl}/rpc/2.0/ai_custom/v1/wenxinworkshop/${kind}/${endpoint}?access_token=${token}`;
}

/**
 * A canonical chat request → the call of the channel's API: with `APIKey|SecretKey`, ERNIE's v1 chat endpoint
 * of the model with the prepared access token; with one API key, Qianfan's OpenAI-compatible v2 API.
 */
export function buildBaiduRequest(
  input: CanonicalChatInput,
): UpstreamHttpRequest | Promise<UpstreamHttpRequest> {
  if (parseBaiduKey(input.channel.key).version === 'v2') return qianfanV2.translator.buildRequest(input);
  return {
    url: buildBaiduV1Url(input.channel, 'chat', findBaiduChatEndpoint(input.upstreamModel)),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(convertToBaiduRequest(input.request, input.isStream)),
  };
}
