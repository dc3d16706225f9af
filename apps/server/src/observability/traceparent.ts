import type { Context } from '@opentelemetry/api';
import { openTelemetryApi } from './opentelemetry-api';

/** version, trace id, parent span id, flags; versions after 00 may append fields after another dash */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/**
 * The parent a client named in a W3C `traceparent` header (https://www.w3.org/TR/trace-context/), as an
 * OpenTelemetry context; the root context when the header is absent or malformed, so a bad header starts a new
 * trace instead of failing the request.
 */
export function readTraceParent(header: string | string[] | undefined): Context {
  const { ROOT_CONTEXT, trace } = openTelemetryApi();
  if (typeof header !== 'string') return ROOT_CONTEXT;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return ROOT_CONTEXT;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is invalid; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return ROOT_CONTEXT;
  if (traceId === INVALID_TRACE_ID || spanId === INVALID_SPAN_ID) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: parseInt(flags, 16) & 1,
    isRemote: true,
  });
}
