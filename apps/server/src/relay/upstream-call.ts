import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { UpstreamRequest } from '../providers/provider-types';
import type { RelayRuntime } from './relay-runtime';

export interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Dispatcher.ResponseData['body'];
}

/**
 * One POST to an upstream over the shared keep-alive pools (undici's request(): a fraction of fetch's CPU).
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
    method: 'POST',
    headers: upstream.headers,
    body: upstream.body,
    signal,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
}

const splitUrls = new Map<string, { origin: string; path: string }>();
const MAX_SPLIT_URLS = 1000;

/** Upstream URLs repeat (one per channel and endpoint): parse each once instead of on every request. */
function splitUrl(url: string): { origin: string; path: string } {
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
  return Buffer.from(await response.body.arrayBuffer());
}

/** Frees the connection of an answer the relay does not read. */
export function discardUpstreamBody(response: UpstreamResponse): void {
  response.body.resume();
  response.body.on('error', () => undefined);
}

export function headerText(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}
