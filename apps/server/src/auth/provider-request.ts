import { request } from '../http/undici-client';

/** A third-party call (GitHub, Lark, WeChat server, Turnstile) that could not be made or read. */
export class ProviderError extends Error {}

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

export interface ProviderResponse {
  statusCode: number;
  /** the parsed JSON body, or undefined when the body was not JSON */
  body: unknown;
}

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** sent as JSON */
  json?: unknown;
  /** sent as application/x-www-form-urlencoded */
  form?: Record<string, string>;
}

/**
 * One JSON round trip with a third party, bounded in time and size. Network failures become a
 * ProviderError naming the provider; HTTP error statuses are left to the caller, since some providers
 * explain the failure in the body.
 */
export async function callProvider(
  provider: string,
  url: string,
  options: ProviderRequest = {},
): Promise<ProviderResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  try {
    const response = await request(url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const text = await readLimited(response.body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { statusCode: response.statusCode, body: parsed };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError(`${provider} did not answer (${reason})`);
  }
}

async function readLimited(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('the answer was larger than 1 MB');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
