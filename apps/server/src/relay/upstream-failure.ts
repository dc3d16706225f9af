import type {
  UnsupportedOptionError,
  UpstreamErrorDetails,
  UpstreamErrorKind,
  UpstreamReportedError,
} from '../canonical/translation';
import { RelayError } from './relay-error';

/**
 * What kind of failure an attempt had, for metrics and traces: the vendor's error kind when it answered with
 * an error, else what went wrong on the way (no answer in time, no connection, an unreadable answer, a channel
 * whose key or settings cannot be used, a request the adapter could not write, an option its vendor lacks, an
 * endpoint it does not offer).
 */
export type UpstreamFailureKind =
  | UpstreamErrorKind
  | 'timeout'
  | 'connection'
  | 'bad_answer'
  | 'channel_setup'
  | 'untranslated'
  | 'unsupported_option'
  | 'unservable';

/** Why one attempt on one channel failed, and what the relay should do about it. */
export interface UpstreamFailure {
  kind: UpstreamFailureKind;
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
  /** the channel's key is refused, out of money or its account deactivated: disabled when the option says so */
  isChannelDead: boolean;
  /** how long a 429 asked to wait (Retry-After): the channel rests that long for the model */
  retryAfterMs?: number | null;
}

/** What one attempt on a channel gave: its value, or why it failed. */
export type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; failure: UpstreamFailure };

/** The channel an attempt was made on, as failures name it. */
export interface FailedChannel {
  /** the channel type's name, e.g. "Anthropic Claude" */
  typeName: string;
  /** scrubbed from every message */
  key: string;
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

/** The upstream refused the channel's credentials themselves: an upstream 401 or 403, whatever it says. */
export function isCredentialRefusal(status: number, details: UpstreamErrorDetails): boolean {
  return (
    status === 401 || status === 403 || details.kind === 'authentication' || details.kind === 'permission'
  );
}

/**
 * The upstream says the channel itself is unusable (refused credentials, no money, deactivated account), as
 * opposed to the request being wrong. OpenAI reports an empty balance as 429 insufficient_quota, so that counts
 * too.
 */
export function isDeadChannelError(status: number, details: UpstreamErrorDetails): boolean {
  if (isCredentialRefusal(status, details) || details.kind === 'insufficient_quota') return true;
  if (DEAD_CHANNEL_CODES.has(details.code) || details.type === 'insufficient_quota') return true;
  if (DEAD_CHANNEL_TYPES.has(details.type)) return true;
  const message = details.message.toLowerCase();
  return (
    (status === 400 || status === 402) && DEAD_CHANNEL_MESSAGES.some((phrase) => message.includes(phrase))
  );
}

/**
 * An upstream that answered with an error status. The client gets the upstream's status and words, except
 * when the channel itself is refused: its own key is fine then, so it gets a 502 that names the channel type
 * (a 401 would read as "your key is wrong" in every SDK), and the channel is marked as failing.
 */
export function describeUpstreamError(
  upstreamStatus: number,
  details: UpstreamErrorDetails,
  channel: FailedChannel,
): UpstreamFailure {
  const isChannelDead = isDeadChannelError(upstreamStatus, details);
  const upstreamMessage =
    scrubSecrets(details.message, channel.key) || `the upstream answered HTTP ${upstreamStatus}`;
  if (isChannelDead) {
    const isRefused = isCredentialRefusal(upstreamStatus, details);
    return {
      kind: details.kind,
      upstreamStatus,
      status: 502,
      message: isRefused
        ? `The ${channel.typeName} channel's credentials were refused by the upstream (HTTP ${upstreamStatus}): ` +
          `${upstreamMessage}. An administrator must fix the channel's key; your API key is fine`
        : `The ${channel.typeName} channel is unusable at the upstream (HTTP ${upstreamStatus}): ${upstreamMessage}`,
      type: 'upstream_error',
      code: isRefused ? 'channel_auth_failed' : 'channel_unavailable',
      isRetriable: true,
      isChannelDead,
    };
  }
  const status = upstreamStatus >= 400 && upstreamStatus <= 599 ? upstreamStatus : 502;
  return {
    kind: details.kind,
    upstreamStatus,
    status,
    message: upstreamMessage,
    type: details.type || (status >= 500 ? 'server_error' : 'invalid_request_error'),
    code: details.code || null,
    isRetriable: upstreamStatus === 429 || upstreamStatus >= 500,
    isChannelDead: false,
  };
}

/** The HTTP status each kind of failure would have had as an error answer. 529 is "overloaded". */
const statusOfKind: Record<UpstreamErrorKind, number> = {
  authentication: 401,
  permission: 403,
  insufficient_quota: 429,
  rate_limit: 429,
  overloaded: 529,
  invalid_request: 400,
  not_found: 404,
  context_length: 400,
  server: 500,
  unknown: 502,
};

/**
 * An error the upstream reported inside a 2xx body or a stream (UpstreamReportedError), acted on like the
 * error answer of its kind: a rate limit or overload like a 429 / 529 (retried elsewhere), refused credentials
 * like a 401 (channel_auth_failed), a bad request like a 400 with the vendor's words.
 */
export function describeReportedError(error: UpstreamReportedError, channel: FailedChannel): UpstreamFailure {
  return describeUpstreamError(statusOfKind[error.details.kind], error.details, channel);
}

/**
 * The adapter could not build a request from the channel's stored key or settings (saved before the save-time
 * checks). Another channel may serve the request; this one stays enabled, for an administrator to fix.
 */
export function describeChannelSetupFailure(detail: string, channel: FailedChannel): UpstreamFailure {
  return {
    kind: 'channel_setup',
    upstreamStatus: 0,
    status: 502,
    message:
      `The ${channel.typeName} channel's key or settings cannot be used: ${scrubSecrets(detail, channel.key)}. ` +
      'An administrator must fix the channel; your API key is fine',
    type: 'upstream_error',
    code: 'channel_misconfigured',
    isRetriable: true,
    isChannelDead: false,
  };
}

/**
 * The adapter could not write the request for its vendor (RequestTranslationError). Nothing was sent; another
 * channel's adapter may write it, so it is retried. Not the channel's fault, nor knowingly the client's: a
 * 500, which the circuit breaker ignores.
 */
export function describeUntranslatedRequest(detail: string, channel: FailedChannel): UpstreamFailure {
  return {
    kind: 'untranslated',
    upstreamStatus: 0,
    status: 500,
    message: `This gateway could not write the request for the ${channel.typeName} channel (${detail}); nothing was sent upstream`,
    type: 'server_error',
    code: 'request_not_translated',
    isRetriable: true,
    isChannelDead: false,
  };
}

/** A 2xx answer that is cut or not what the vendor documents (UpstreamFormatError, broken JSON). */
export function describeMalformedAnswer(detail: string, channel: FailedChannel): UpstreamFailure {
  return {
    kind: 'bad_answer',
    upstreamStatus: 200,
    status: 502,
    message: `The ${channel.typeName} channel's upstream sent an answer this gateway cannot read: ${scrubSecrets(detail, channel.key)}`,
    type: 'upstream_error',
    code: 'bad_upstream_answer',
    isRetriable: true,
    isChannelDead: false,
  };
}

/**
 * The request asks for something the channel's vendor cannot do (translator.buildRequest said so before
 * anything was sent). Another channel of the model may be able to, so it is retried; alone, it is a 400.
 */
export function describeUnsupportedOption(
  error: UnsupportedOptionError,
  channel: FailedChannel,
): UpstreamFailure {
  return {
    kind: 'unsupported_option',
    upstreamStatus: 0,
    status: 400,
    message: `${error.message} (the model is served here by a channel of type ${channel.typeName})`,
    type: 'invalid_request_error',
    code: 'unsupported_option',
    isRetriable: true,
    isChannelDead: false,
  };
}

/** The adapter could not turn the channel's key into an access token. */
export function describeCredentialFailure(
  error: unknown,
  isRefused: boolean,
  channel: FailedChannel,
): UpstreamFailure {
  const detail = scrubSecrets(error instanceof Error ? error.message : String(error), channel.key);
  return {
    kind: isRefused ? 'authentication' : 'connection',
    upstreamStatus: 0,
    status: 502,
    message: isRefused
      ? `The ${channel.typeName} channel's credentials were refused by the upstream: ${detail}. An ` +
        "administrator must fix the channel's key; your API key is fine"
      : `Could not get an access token for the ${channel.typeName} channel: ${detail}`,
    type: 'upstream_error',
    code: isRefused ? 'channel_auth_failed' : 'upstream_unreachable',
    isRetriable: true,
    isChannelDead: isRefused,
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
    kind: isTimeout ? 'timeout' : 'connection',
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

/**
 * A stream whose first byte did not come within StreamFirstTokenTimeout: the attempt is cut before anything
 * reached the client, and another channel is tried.
 */
export function describeFirstTokenTimeout(seconds: number, channel: FailedChannel): UpstreamFailure {
  return {
    kind: 'timeout',
    upstreamStatus: 0,
    status: 504,
    message: `The ${channel.typeName} channel's upstream sent nothing of its stream within ${seconds} s`,
    type: 'upstream_error',
    code: 'first_token_timeout',
    isRetriable: true,
    isChannelDead: false,
  };
}

/** A channel that cannot serve the call at all (no adapter yet, or no such endpoint at that vendor). */
export function describeUnservableChannel(message: string): UpstreamFailure {
  return {
    kind: 'unservable',
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
