import { request as sendHttp } from '../../http/undici-client';
import type { UpstreamTransport } from '../provider-types';
import { openSparkStream } from './open-spark-stream';

/**
 * How a Spark channel is reached: the WebSocket API (ws:// and wss:// URLs, built for APPID|APISecret|APIKey
 * keys) through openSparkStream; the HTTP API (APIPassword keys) as a plain HTTP call.
 */
export const sparkTransport: UpstreamTransport = {
  async send(upstream, signal) {
    if (/^wss?:\/\//i.test(upstream.url)) return openSparkStream(upstream.url, upstream.body, signal);
    const response = await sendHttp(upstream.url, {
      method: upstream.method ?? 'POST',
      headers: upstream.headers,
      body: upstream.body,
      signal,
    });
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  },
};
