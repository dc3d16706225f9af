import {
  kindFromStatus,
  UpstreamReportedError,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';
import { BEDROCK } from './bedrock-converse-types';

/**
 * Bedrock Runtime's exceptions (Errors of API_runtime_Converse.html and the common errors of
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html) → what the relay acts on.
 */
const kindsByType: Readonly<Record<string, UpstreamErrorKind>> = {
  UnrecognizedClientException: 'authentication',
  InvalidSignatureException: 'authentication',
  IncompleteSignature: 'authentication',
  IncompleteSignatureException: 'authentication',
  MissingAuthenticationTokenException: 'authentication',
  InvalidClientTokenId: 'authentication',
  ExpiredTokenException: 'authentication',
  AccessDeniedException: 'permission',
  ThrottlingException: 'rate_limit',
  TooManyRequestsException: 'rate_limit',
  ServiceQuotaExceededException: 'rate_limit',
  ModelNotReadyException: 'overloaded',
  ServiceUnavailableException: 'overloaded',
  ValidationException: 'invalid_request',
  ResourceNotFoundException: 'not_found',
  InternalServerException: 'server',
  ModelErrorException: 'server',
  ModelTimeoutException: 'server',
  ModelStreamErrorException: 'server',
};

/** Without the exception's name: Bedrock's own statuses first (408 ModelTimeout, 424 ModelError), then the usual. */
function kindByStatus(status: number): UpstreamErrorKind {
  return status === 408 || status === 424 ? 'server' : kindFromStatus(status);
}

/** Claude's "prompt is too long" and Bedrock's "Input is too long for requested model" are ValidationExceptions. */
const CONTEXT_LENGTH = /too long|context (length|window)|maximum context|exceeds? the model's max/i;

/**
 * The exception's name, whichever spelling carries it: the x-amzn-errortype header
 * (`ValidationException:http://internal.amazon.com/coral/…`), the body's `__type`
 * (`com.amazon.coral.service#UnrecognizedClientException`) or an event stream's `:exception-type`
 * (`throttlingException`).
 */
export function normalizeBedrockErrorType(raw: string): string {
  const name = raw.split(':')[0]!.split('#').at(-1)!.trim();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function describeBedrockError(type: string, status: number, message: string): UpstreamErrorDetails {
  let kind = kindsByType[type] ?? kindByStatus(status);
  if (kind === 'invalid_request' && CONTEXT_LENGTH.test(message)) kind = 'context_length';
  return { message, type: type || 'UnknownError', code: type || String(status), kind };
}

/**
 * An error answer: JSON `{"message": "…"}` (sometimes `Message`), the exception's name in the x-amzn-errortype
 * header. Pass the header when the relay has it; without it the body's `__type` or the status decides.
 */
export function readBedrockError(body: Buffer, status: number, errorTypeHeader = ''): UpstreamErrorDetails {
  const text = body.toString('utf8');
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) fields = parsed as Record<string, unknown>;
  } catch {
    // an HTML page of a proxy, or nothing: the text itself is the message
  }
  const bodyMessage = fields.message ?? fields.Message;
  const message =
    typeof bodyMessage === 'string' && bodyMessage !== ''
      ? bodyMessage
      : text.trim().slice(0, 500) || `${BEDROCK} answered HTTP ${status}`;
  const rawType = errorTypeHeader || (typeof fields.__type === 'string' ? fields.__type : '');
  return describeBedrockError(rawType ? normalizeBedrockErrorType(rawType) : '', status, message);
}

/**
 * An exception event in the middle of a ConverseStream (throttlingException, modelStreamErrorException …):
 * the answer is unusable, like a cut one, and the details say why.
 */
export class BedrockStreamError extends UpstreamReportedError {
  constructor(details: UpstreamErrorDetails) {
    super(BEDROCK, details, `${BEDROCK} stream failed: ${details.type}: ${details.message}`);
  }
}
