import {
  CredentialRefusedError,
  type CredentialFetch,
  type CredentialResponse,
  type PreparedCredential,
  type TranslatorChannel,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { parseBaiduKey } from './baidu-key';
import type { BaiduTokenAnswer } from './baidu-wire-types';

/** Baidu's tokens live 30 days; an answer without expires_in is taken to say so. */
const THIRTY_DAYS_S = 2_592_000;
/** A v2 API key does not expire by itself: it is used as it is until an administrator changes it. */
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The client-credentials grant of Baidu's OAuth endpoint
 * (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Ilkkrb0i5): the application's API key and secret key in the
 * query of a POST to `{base}/oauth/2.0/token`.
 */
export function buildBaiduTokenRequest(
  baseUrl: string,
  apiKey: string,
  secretKey: string,
): UpstreamHttpRequest {
  const query = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: apiKey,
    client_secret: secretKey,
  });
  return {
    url: `${baseUrl}/oauth/2.0/token?${query.toString()}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '',
  };
}

function parseAnswer(body: Buffer): BaiduTokenAnswer | null {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as BaiduTokenAnswer) : null;
  } catch {
    return null;
  }
}

/** `invalid_client (unknown client id)`: the OAuth error as Baidu words it, which never repeats a secret. */
function describeError(answer: BaiduTokenAnswer | null, status: number): string {
  const parts = [answer?.error, answer?.error_description && `(${answer.error_description})`];
  return parts.filter(Boolean).join(' ') || `HTTP ${status}`;
}

/**
 * The token endpoint's answer: the access token and when it expires (expires_in seconds after the request
 * was sent). A 4xx, or a 2xx naming an OAuth error, is the key refused: CredentialRefusedError.
 */
export function readBaiduTokenAnswer(response: CredentialResponse, sentAt: number): PreparedCredential {
  const answer = parseAnswer(response.body);
  const isOk = response.status >= 200 && response.status < 300;
  if (isOk && typeof answer?.access_token === 'string' && answer.access_token !== '') {
    const expiresIn =
      typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : THIRTY_DAYS_S;
    return { accessToken: answer.access_token, expiresAt: sentAt + expiresIn * 1000 };
  }
  const detail = describeError(answer, response.status);
  if ((isOk && answer?.error) || (response.status >= 400 && response.status < 500)) {
    throw new CredentialRefusedError(`Baidu refused an access token to the channel's API key: ${detail}`);
  }
  if (isOk) throw new Error("Baidu's token endpoint answered without an access token");
  throw new Error(`Baidu's token endpoint failed (HTTP ${response.status}): ${detail}`);
}

/**
 * An access token for the channel's `APIKey|SecretKey`, through the relay's HTTP client. The channel's Base
 * URL (default https://aip.baidubce.com) serves the token endpoint as it serves the chat endpoints.
 */
export async function fetchBaiduAccessToken(
  channel: Pick<TranslatorChannel, 'baseUrl' | 'key'>,
  fetch: CredentialFetch,
  now: () => number = Date.now,
): Promise<PreparedCredential> {
  let key;
  try {
    key = parseBaiduKey(channel.key);
  } catch (error) {
    throw new CredentialRefusedError((error as Error).message);
  }
  if (key.version === 'v2') return { accessToken: key.apiKey, expiresAt: now() + ONE_YEAR_MS };
  const sentAt = now();
  let response: CredentialResponse;
  try {
    response = await fetch(buildBaiduTokenRequest(channel.baseUrl, key.apiKey, key.secretKey));
  } catch (error) {
    // The secret travels in the token URL: no message of a failed request may repeat it.
    const message = String((error as Error)?.message ?? error).replaceAll(key.secretKey, '***');
    throw new Error(`Baidu's token endpoint could not be reached: ${message}`);
  }
  return readBaiduTokenAnswer(response, sentAt);
}
