import {
  kindFromStatus,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from '../../canonical/translation';
import type { DashScopeError } from './dashscope-wire-types';
import { readErrorBody } from '../shared/read-error-body';

/**
 * DashScope's error codes (https://help.aliyun.com/zh/model-studio/error-code) as the kinds the relay acts
 * on, by their dotted prefix (Throttling.RateQuota is a Throttling). DataInspectionFailed is DashScope's
 * content moderation refusing the input or output: a request error, not the channel's fault.
 */
const KIND_OF_PREFIX: ReadonlyArray<[string, UpstreamErrorKind]> = [
  ['InvalidApiKey', 'authentication'],
  ['Arrearage', 'insufficient_quota'],
  ['Throttling', 'rate_limit'],
  ['AccessDenied', 'permission'],
  ['Model.AccessDenied', 'permission'],
  ['ModelNotFound', 'not_found'],
  ['ModelNotExist', 'not_found'],
  ['DataInspectionFailed', 'invalid_request'],
  ['data_inspection_failed', 'invalid_request'],
  ['InvalidParameter', 'invalid_request'],
  ['InvalidURL', 'not_found'],
  ['RequestTimeOut', 'server'],
  ['InternalError', 'server'],
  ['ServiceUnavailable', 'overloaded'],
];

/** "Range of input length should be [1, 30720]", "Input or output data may contain inappropriate content." */
const CONTEXT_MESSAGE = /range of input length|input length|context length|too long/i;
/** DashScope names an unknown model with InvalidParameter: "Model not exist." */
const MODEL_MESSAGE = /model not exist|model .*not found/i;

function kindOf(code: string, message: string, status: number): UpstreamErrorKind {
  const prefixed = KIND_OF_PREFIX.find(([prefix]) => code === prefix || code.startsWith(`${prefix}.`));
  const kind = prefixed?.[1] ?? kindFromStatus(status);
  if (kind !== 'invalid_request') return kind;
  if (MODEL_MESSAGE.test(message)) return 'not_found';
  return CONTEXT_MESSAGE.test(message) ? 'context_length' : kind;
}

/** `{code, message, request_id}` as the relay's details, or null when the value is not one. */
export function readDashScopeErrorObject(value: unknown, status: number): UpstreamErrorDetails | null {
  if (typeof value !== 'object' || value === null) return null;
  const { code, message } = value as DashScopeError;
  if (typeof code !== 'string' || code === '') return null;
  const text = typeof message === 'string' && message !== '' ? message : `DashScope error ${code}`;
  return { message: text, type: 'dashscope_error', code, kind: kindOf(code, text, status) };
}

/** A DashScope error answer (HTTP 4xx/5xx with `{code, message}`), or a proxy's page read by its status. */
export function readDashScopeError(body: Buffer, status: number): UpstreamErrorDetails {
  const { excerpt, json } = readErrorBody(body);
  return (
    readDashScopeErrorObject(json, status) ?? {
      message: excerpt || `HTTP ${status}`,
      type: '',
      code: '',
      kind: kindFromStatus(status),
    }
  );
}
