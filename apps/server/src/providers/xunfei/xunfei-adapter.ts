import type { ChatTranslator, UpstreamErrorDetails } from '../../canonical/translation';
import type { ProviderAdapter } from '../provider-types';
import { buildSparkRequest } from './build-spark-request';
import { readSparkError } from './read-spark-error';
import { readSparkResponse } from './read-spark-response';
import { createSparkStreamDecoder } from './spark-stream-decoder';
import { sparkTransport } from './spark-transport';

export { SPARK_HTTP_BASE_URL, SPARK_WEBSOCKET_BASE_URL } from './build-spark-request';
export { DEFAULT_SPARK_VERSION, SPARK_VERSIONS, findSparkVersion } from './find-spark-version';
export { openSparkStream } from './open-spark-stream';
export { SPARK_KEY_FORMAT, isSparkWebSocketKey, validateSparkKey } from './spark-key';
export { SparkReportedError } from './spark-reported-error';
export { sparkTransport } from './spark-transport';

/**
 * Canonical chat to and from iFlytek Spark: over its WebSocket API (https://www.xfyun.cn/doc/spark/Web.html)
 * for `APPID|APISecret|APIKey` keys — a signed URL and one request frame, answer frames decoded — or over
 * its OpenAI-compatible HTTP API for an APIPassword key. Decoders and readResponse tell the two apart by
 * the answer itself.
 */
export const xunfeiTranslator: ChatTranslator = {
  buildRequest: (input) => buildSparkRequest(input),
  readResponse: readSparkResponse,
  createStreamDecoder: createSparkStreamDecoder,
};

/** A Spark error: a refused handshake, an error frame, or an HTTP API error. */
export function readError(body: Buffer, status: number): UpstreamErrorDetails {
  return readSparkError(body, status);
}

/**
 * iFlytek Spark, chat only. The WebSocket needs its own transport (sparkTransport), which also makes the
 * HTTP API's plain calls. No client speaks Spark's protocol: every client is translated.
 */
export const xunfeiAdapter: ProviderAdapter = {
  wireFormat: 'iflytek-spark',
  protocol: 'openai-chat',
  translator: xunfeiTranslator,
  readError,
  transport: sparkTransport,
};
