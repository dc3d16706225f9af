import type { ChatChunk, ToolCallDelta } from '../../canonical/chat';
import { UpstreamReportedError, type ChatStreamDecoder } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import type { SseEvent } from '../provider-types';
import { ToolCallNumbering } from '../shared/tool-call-numbering';
import { createVendorChatStreamDecoder, type VendorChatTurn } from '../shared/vendor-chat-stream';
import { convertDashScopeUsage } from './convert-dashscope-usage';
import { dashScopeText, parseDashScopeObject, readDashScopeResponse } from './convert-dashscope-response';
import { DASHSCOPE, type DashScopeResponse, type DashScopeToolCall } from './dashscope-wire-types';
import { mapDashScopeFinishReason } from './map-dashscope-finish-reason';
import { readDashScopeErrorObject } from './read-dashscope-error';

/** DashScope puts the status of each event in a comment line, `:HTTP_STATUS/400`. */
function statusOf(event: SseEvent): number {
  const match = /^:HTTP_STATUS\/(\d{3})$/m.exec(event.raw);
  return match ? Number(match[1]) : 200;
}

/** An `event:error` (`{code, message, request_id}`), as the error it reports. */
function readErrorEvent(event: SseEvent): UpstreamReportedError {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    // described below
  }
  const status = statusOf(event);
  const details = readDashScopeErrorObject(parsed, status) ?? {
    message: event.data.slice(0, 500),
    type: 'dashscope_error',
    code: '',
    kind: status >= 400 ? ('invalid_request' as const) : ('unknown' as const),
  };
  return new UpstreamReportedError(DASHSCOPE, details);
}

/**
 * Decodes DashScope's SSE stream with incremental_output (`id:…`, `event:result`, `:HTTP_STATUS/200`,
 * `data:{"output":{"choices":[{"message":{…},"finish_reason":"null"}]},"usage":{…}}`) into canonical chunks:
 * content, reasoning_content, tool calls numbered by their index (a call's first delta has its id and name,
 * later ones add arguments), the finish reason and a usage-only chunk. Each event carries the usage so far;
 * the last counts. An `event:error` is thrown as UpstreamReportedError after the chunks before it; a JSON
 * body (a server that ignored the SSE header, or an error object) is read whole at the end; a stream without
 * a finish reason throws UpstreamFormatError from end().
 */
export function createDashScopeStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  const toolCalls = new ToolCallNumbering();
  let id = '';
  const created = Math.floor(Date.now() / 1000);

  function toolDeltas(calls: DashScopeToolCall[]): ToolCallDelta[] {
    return calls.map((call, position) =>
      toolCalls.delta(call.index ?? position, {
        id: call.id ?? '',
        name: call.function?.name ?? '',
        arguments: call.function?.arguments ?? '',
      }),
    );
  }

  function readEvent(event: SseEvent, turn: VendorChatTurn): ChatChunk[] {
    if (event.event === 'error') throw readErrorEvent(event);
    const data: DashScopeResponse = parseDashScopeObject(event.data, 'a stream event');
    id = data.request_id ?? id;
    turn.noteUsage(convertDashScopeUsage(data.usage));
    const choice = data.output?.choices?.[0];
    const message = choice?.message ?? {};
    const fields = {
      reasoning_content: message.reasoning_content,
      content: dashScopeText(message.content),
      tool_calls: message.tool_calls?.length ? toolDeltas(message.tool_calls) : undefined,
    };
    return turn.chunks({ id, created, model: '' }, fields, mapDashScopeFinishReason(choice?.finish_reason));
  }

  return createVendorChatStreamDecoder({
    vendor: DASHSCOPE,
    finalEvent: 'its finish reason',
    split: { push: (bytes) => splitter.pushEvents(bytes), end: () => splitter.endEvents() },
    readEvent,
    readAnswer: readDashScopeResponse,
  });
}
