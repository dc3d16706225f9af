import type { CanonicalChatInput, TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import { parseTencentKey } from './tencent-key';
import { signTc3 } from './tencent-tc3-signature';
import { convertToTencentRequest } from './convert-to-tencent-request';

/** The API version every Hunyuan action of these adapters is written for. */
const VERSION = '2023-09-01';
const CONTENT_TYPE = 'application/json';

/**
 * A signed call of a Hunyuan action: POST `{base}/` (https://hunyuan.tencentcloudapi.com by default) with the
 * action and version in X-TC headers, X-TC-Region when the channel's config names one (Hunyuan is served from
 * ap-guangzhou and needs none), and TC3-HMAC-SHA256 over the host actually called. `now` is for tests.
 */
export function buildTencentActionRequest(
  channel: TranslatorChannel,
  action: 'ChatCompletions' | 'GetEmbedding',
  body: string,
  now: () => number = Date.now,
): UpstreamHttpRequest {
  const { secretId, secretKey } = parseTencentKey(channel.key);
  const url = `${channel.baseUrl}/`;
  const timestamp = Math.floor(now() / 1000);
  const { authorization } = signTc3({
    secretId,
    secretKey,
    service: 'hunyuan',
    host: new URL(url).host,
    contentType: CONTENT_TYPE,
    payload: body,
    timestamp,
  });
  const region = channel.config.region?.trim();
  return {
    url,
    headers: {
      authorization,
      'content-type': CONTENT_TYPE,
      'x-tc-action': action,
      'x-tc-version': VERSION,
      'x-tc-timestamp': String(timestamp),
      ...(region ? { 'x-tc-region': region } : {}),
    },
    body,
  };
}

/** A canonical chat request → a signed ChatCompletions call (SSE when streaming). */
export function buildTencentRequest(input: CanonicalChatInput, now?: () => number): UpstreamHttpRequest {
  const body = JSON.stringify(convertToTencentRequest(input.request, input.upstreamModel, input.isStream));
  return buildTencentActionRequest(input.channel, 'ChatCompletions', body, now);
}
