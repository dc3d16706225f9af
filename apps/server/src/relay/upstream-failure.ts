import type { UpstreamErrorDetails } from '../providers/provider-types';
import { RelayError } from './relay-error';

/** Why one attempt on one channel failed, and what the relay should do about it. */
export interface UpstreamFailure {
  /** the upstream's HTTP status, or 0 when no answer came (connection error, timeout) */
  upstreamStatus: number;
  /** the status answered to the client when no other channel succeeds */
  status: number;
  /** safe to show: channel keys and credentials removed */
  message: string;
  type: string;
  code: string | null;
  /** another channel may do better: 429, 5xx, timeouts, connection errors and dead channel credentials */
  isRetriable: boolean;
  /** the channel's key is invalid, out of money or its account deactivated */
  isChannelDead: boolean;
}

/**
 * Removes what must never reach a client: the channel's key, anything shaped like an API key, credentials in
 * URLs and key-bearing query parameters.
 */
export function scrubSecrets(text: string, channelKey: string): string {
  let scrubbed = text;
  for (const part of channelKey.split(/[|\n]/)) {
    if (part.length >= 6) scrubbed = scrubbed.split(part).join('***');
  }
  return scrubbed
    .replace(/\b(sk|pk|rk|sess)-[A-Za-z0-9_\-*.]{6,}/g, '$1-***')
    .replace(/(https?:\/\/)[^\s/@"']+@/gi, '$1***@')
    .replace(/([?&](?:key|api[-_]?key|token|access_token|signature|sig)=)[^&\s"']+/gi, '$1***');
}

const DEAD_CHANNEL_CODES = new Set([
  'invalid_api_key',
  'account_deactivated',
  'insufficient_quota',
  'billing_not_active',
  'billing_hard_limit_reached',
  'organization_deactivated',
]);

const DEAD_CHANNEL_TYPES = new Set(['insufficient_quota', 'authentication_error', 'permission_error']);

const DEAD_CHANNEL_MESSAGES = [
  'incorrect api key',
  'invalid api key',
  'api key not valid',
  'invalid x-api-key',
  'your credit balance is too low',
  'you exceeded your current quota',
  'this organization has been disabled',
  'account has been deactivated',
  'account deactivated',
  'account is not active',
  'billing',
  'the security token included in the request is invalid',
  '已欠费',
  '余额不足',
];

/**
 * The upstream says the channel itself is unusable (invalid key, no money, deactivated account), as opposed
 * to the request being wrong. OpenAI reports an empty balance as 429 insufficient_quota, so that counts too.
 */
export function isDeadChannelError(status: number, details: UpstreamErrorDetails): boolean {
  if (DEAD_CHANNEL_CODES.has(details.code) || details.type === 'insufficient_quota') return true;
  if (status !== 401 && status !== 403) return false;
  if (status === 401) return true;
  if (DEAD_CHANNEL_TYPES.has(details.type)) return true;
  const message = details.message.toLowerCase();
  return DEAD_CHANNEL_MESSAGES.some((phrase) => message.includes(phrase));
}

/** An upstream that answered with an error status. */
export function describeUpstreamError(
  upstreamStatus: number,
  details: UpstreamErrorDetails,
  channelKey: string,
): UpstreamFailure {
  const isChannelDead = isDeadChannelError(upstreamStatus, details);
  const upstreamMessage =
    scrubSecrets(details.message, channelKey) || `upstream answered HTTP ${upstreamStatus}`;
  // The client's key is fine when the channel's is not: say so, instead of a 401 the SDK reads as "your key".
  const isCredentialProblem = upstreamStatus === 401 || upstreamStatus === 403 || isChannelDead;
  const status = isCredentialProblem
    ? 502
    : upstreamStatus >= 400 && upstreamStatus <= 599
      ? upstreamStatus
      : 502;
  return {
    upstreamStatus,
    status,
    message: isCredentialProblem
      ? `The upstream provider refused the channel: ${upstreamMessage}`
      : upstreamMessage,
    type: isCredentialProblem
      ? 'upstream_error'
      : details.type || (status >= 500 ? 'server_error' : 'invalid_request_error'),
    code: isCredentialProblem ? 'channel_unavailable' : details.code || null,
    isRetriable: upstreamStatus === 429 || upstreamStatus >= 500 || isChannelDead,
    isChannelDead,
  };
}

/** No answer: connection refused or reset, DNS failure, or the RELAY_TIMEOUT elapsed. */
export function describeConnectionFailure(error: unknown): UpstreamFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const isTimeout =
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT';
  return {
    upstreamStatus: 0,
    status: isTimeout ? 504 : 502,
    message: isTimeout
      ? 'The upstream provider did not answer in time'
      : 'Could not reach the upstream provider',
    type: 'upstream_error',
    code: isTimeout ? 'upstream_timeout' : 'upstream_unreachable',
    isRetriable: true,
    isChannelDead: false,
  };
}

/** A channel that cannot serve the call at all (no adapter yet, or no such endpoint at that vendor). */
export function describeUnservableChannel(message: string): UpstreamFailure {
  return {
    upstreamStatus: 0,
    status: 501,
    message,
    type: 'invalid_request_error',
    code: 'not_implemented',
    isRetriable: true,
    isChannelDead: false,
  };
}

export function toRelayError(failure: UpstreamFailure): RelayError {
  return new RelayError(failure.status, failure.message, failure.type, failure.code);
}
