import type { EventEmitter } from 'node:events';
import type { ProviderAdapter, UpstreamAnswer, UpstreamRequest } from '../providers/provider-types';
import type { RelayRuntime } from './relay-runtime';

/** An upstream answer: undici's body has arrayBuffer(); a transport's is a plain byte stream. */
export type UpstreamResponse = UpstreamAnswer & {
  body: UpstreamAnswer['body'] & { arrayBuffer?: () => Promise<ArrayBuffer> };
};

/**
 * One request to an upstream over the shared keep-alive pools (undici's request(): a fraction of fetch's CPU).
 * RELAY_TIMEOUT bounds the wait for the answer's headers and every gap between body chunks; 0 = no limit.
 * Throws on connection errors and timeouts; an error status is an answer, not a throw.
 */
export async function sendUpstream(
  runtime: RelayRuntime,
  upstream: UpstreamRequest,
  signal: AbortSignal | EventEmitter,
): Promise<UpstreamResponse> {
  const timeout = runtime.context.config.relayTimeoutSeconds * 1000;
  const { origin, path } = splitUrl(upstream.url);
  const response = await runtime.dispatcher.request({
    origin,
    path,
    method: upstream.method ?? 'POST',
    headers: upstream.headers,
    body: upstream.body,
    signal,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
}

/** The adapter's own transport when it has one (a WebSocket vendor), else the HTTP pools. */
export function sendToChannel(
  runtime: RelayRuntime,
  adapter: ProviderAdapter,
  upstream: UpstreamRequest,
  signal: AbortSignal | EventEmitter,
): Promise<UpstreamResponse> {
  return adapter.transport
    ? adapter.transport.send(upstream, signal)
    : sendUpstream(runtime, upstream, signal);
}

const splitUrls = new Map<string, { origin: string; path: string }>();
const MAX_SPLIT_URLS = 1000;

/** Upstream URLs repeat (one per channel and endpoint): parse each once instead of on every request. */
export function splitUrl(url: string): { origin: string; path: string } {
  let split = splitUrls.get(url);
  if (!split) {
    const parsed = new URL(url);
    split = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (splitUrls.size >= MAX_SPLIT_URLS) splitUrls.clear();
    splitUrls.set(url, split);
  }
  return split;
}

export async function readUpstreamBody(response: UpstreamResponse): Promise<Buffer> {
  const { body } = response;
  if (body.arrayBuffer) return Buffer.from(await body.arrayBuffer());
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** Frees the connection of an answer the relay does not read. */
export function discardUpstreamBody(response: UpstreamResponse): void {
  response.body.resume();
  response.body.on('error', () => undefined);
}

export function headerText(headers: UpstreamResponse['headers'], name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}
