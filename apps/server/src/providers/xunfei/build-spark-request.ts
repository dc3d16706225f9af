import type { CanonicalChatInput, UpstreamHttpRequest } from '../../canonical/translation';
import {
  createOpenAICompatibleAdapter,
  openAIEndpointsBeyondChat,
  prefixedLayout,
} from '../openai-compatible/openai-compatible-adapter';
import { convertToSparkFrame } from './convert-to-spark-frame';
import { findSparkVersion } from './find-spark-version';
import { buildSparkAuthUrl } from './sign-spark-url';
import { isSparkWebSocketKey, parseSparkKey } from './spark-key';

/** Where the WebSocket API is when the channel names no base URL. */
export const SPARK_WEBSOCKET_BASE_URL = 'wss://spark-api.xf-yun.com';
/** Where the OpenAI-compatible HTTP API is (https://xfyun.cn/doc/spark/HTTP调用文档.html). */
export const SPARK_HTTP_BASE_URL = 'https://spark-api-open.xf-yun.com';

/**
 * The HTTP API speaks OpenAI's chat at {base}/v1/chat/completions with the APIPassword as a bearer token; the
 * model is Spark's domain name (lite, generalv3.5, 4.0Ultra …). stream_options is not sent: iFlytek does
 * not document it.
 */
const sparkHttpApi = createOpenAICompatibleAdapter({
  ...prefixedLayout('iflytek-spark-http', '/v1'),
  supportsStreamUsage: () => false,
  omit: openAIEndpointsBeyondChat,
});

/** A channel's base URL as the WebSocket's origin: http(s) becomes ws(s), as the console only takes http(s). */
function webSocketOrigin(baseUrl: string): string {
  if (baseUrl === '') return SPARK_WEBSOCKET_BASE_URL;
  return baseUrl.replace(/^http(s?):\/\//i, 'ws$1://');
}

/**
 * The upstream call for a Spark channel. A key `APPID|APISecret|APIKey` is for the WebSocket API: the signed
 * URL of the model's version (the date of `now`), and the request frame as the body. A key without "|" is the
 * HTTP API's APIPassword: an OpenAI chat request for the model's domain name.
 */
export function buildSparkRequest(input: CanonicalChatInput, now: Date = new Date()): UpstreamHttpRequest {
  const { channel } = input;
  const version = findSparkVersion(input.upstreamModel, channel.other);
  if (!isSparkWebSocketKey(channel.key)) {
    return sparkHttpApi.translator.buildRequest({
      ...input,
      channel: { ...channel, baseUrl: channel.baseUrl || SPARK_HTTP_BASE_URL },
      upstreamModel: version.domain,
    }) as UpstreamHttpRequest;
  }
  const credentials = parseSparkKey(channel.key);
  const frame = convertToSparkFrame(input.request, version.domain, credentials.appId);
  return {
    url: buildSparkAuthUrl(`${webSocketOrigin(channel.baseUrl)}${version.path}`, credentials, now),
    method: 'GET',
    headers: {},
    body: JSON.stringify(frame),
  };
}
