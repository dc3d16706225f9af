import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { readTraceParent } from './traceparent';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('readTraceParent', () => {
  it('reads the parent span of a W3C traceparent, sampled or not', () => {
    expect(trace.getSpanContext(readTraceParent(`00-${TRACE_ID}-${SPAN_ID}-01`))).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      traceFlags: 1,
      isRemote: true,
    });
    expect(trace.getSpanContext(readTraceParent(`00-${TRACE_ID}-${SPAN_ID}-00`))?.traceFlags).toBe(0);
  });

  it('accepts fields a later version appends', () => {
    expect(trace.getSpanContext(readTraceParent(`01-${TRACE_ID}-${SPAN_ID}-01-extra`))?.spanId).toBe(SPAN_ID);
  });

  it.each([
    ['absent', undefined],
    ['repeated', [`00-${TRACE_ID}-${SPAN_ID}-01`, `00-${TRACE_ID}-${SPAN_ID}-01`]],
    ['garbage', 'not-a-traceparent'],
    ['a short trace id', `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`],
    ['version ff', `ff-${TRACE_ID}-${SPAN_ID}-01`],
    ['version 00 with more fields', `00-${TRACE_ID}-${SPAN_ID}-01-extra`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero span id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
  ])('starts a new trace when the header is %s', (_what, header) => {
    expect(readTraceParent(header)).toBe(ROOT_CONTEXT);
  });
});
