import {
  kindFromStatus,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';
import type { HunyuanError } from './tencent-wire-types';
import { readErrorBody } from '../shared/read-error-body';

/** Exact codes, looked up before the prefixes below. */
const KIND_OF_CODE: Readonly<Record<string, UpstreamErrorKind>> = {
  'AuthFailure.UnauthorizedOperation': 'permission',
  'FailedOperation.EngineServerLimitExceeded': 'rate_limit',
  'FailedOperation.EngineServerError': 'server',
  'FailedOperation.EngineRequestTimeout': 'server',
  'FailedOperation.FreeResourcePackExhausted': 'insufficient_quota',
  'FailedOperation.ResourcePackExhausted': 'insufficient_quota',
  'FailedOperation.ServiceStopArrears': 'insufficient_quota',
  'FailedOperation.ServiceNotActivated': 'permission',
  'FailedOperation.ServiceStop': 'permission',
  'ResourceInsufficient.ChargeResourceExhaust': 'insufficient_quota',
  'ResourceUnavailable.InArrears': 'insufficient_quota',
  'ResourceUnavailable.LowBalance': 'insufficient_quota',
  'InvalidParameterValue.Model': 'not_found',
  RequestSizeLimitExceeded: 'invalid_request',
  InvalidAction: 'not_found',
  ActionOffline: 'not_found',
};

/**
 * Tencent Cloud's error codes by their dotted prefix: the common ones every API 3.0 action may answer and
 * Hunyuan's own, listed at the end of each action's page (https://cloud.tencent.com/document/api/1729/105701).
 */
const KIND_OF_PREFIX: ReadonlyArray<[string, UpstreamErrorKind]> = [
  ['AuthFailure', 'authentication'],
  ['UnauthorizedOperation', 'permission'],
  ['OperationDenied', 'permission'],
  ['RequestLimitExceeded', 'rate_limit'],
  ['LimitExceeded', 'rate_limit'],
  ['InvalidParameter', 'invalid_request'],
  ['InvalidParameterValue', 'invalid_request'],
  ['MissingParameter', 'invalid_request'],
  ['UnknownParameter', 'invalid_request'],
  ['UnsupportedOperation', 'invalid_request'],
  ['ResourceNotFound', 'not_found'],
  ['InternalError', 'server'],
  ['FailedOperation', 'server'],
];

function kindOfCode(code: string, status: number): UpstreamErrorKind {
  const exact = KIND_OF_CODE[code];
  if (exact) return exact;
  const prefixed = KIND_OF_PREFIX.find(([prefix]) => code === prefix || code.startsWith(`${prefix}.`));
  if (prefixed) return prefixed[1];
  return status >= 400 ? kindFromStatus(status) : 'unknown';
}

/** `{Code, Message}` (API 3.0's Response.Error) as the relay's details. */
export function convertTencentError(error: HunyuanError, status = 200): UpstreamErrorDetails {
  return {
    message: error.Message || `Tencent Cloud error ${error.Code}`,
    type: 'tencent_cloud_error',
    code: error.Code,
    kind: kindOfCode(error.Code, status),
  };
}

/** The Response.Error of a parsed answer, or null. */
export function findTencentError(value: unknown): HunyuanError | null {
  if (typeof value !== 'object' || value === null) return null;
  const response = (value as { Response?: unknown }).Response;
  const error =
    typeof response === 'object' && response !== null ? (response as { Error?: unknown }).Error : null;
  if (typeof error !== 'object' || error === null || typeof (error as HunyuanError).Code !== 'string')
    return null;
  return error as HunyuanError;
}

/**
 * A Tencent Cloud error answer. API 3.0 answers errors with HTTP 200 (the translator throws them); a non-2xx
 * comes from a gateway in front, read by its status unless it carries a Response.Error.
 */
export function readTencentError(body: Buffer, status: number): UpstreamErrorDetails {
  const { excerpt, json } = readErrorBody(body);
  const error = findTencentError(json);
  if (error) return convertTencentError(error, status);
  return {
    message: excerpt || `HTTP ${status}`,
    type: '',
    code: '',
    kind: kindFromStatus(status),
  };
}
