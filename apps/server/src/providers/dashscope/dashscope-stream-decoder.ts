import type { ChatChunk, ChatDelta, ToolCallDelta } from '../../canonical/chat';
import { completionToChunks } from '../../canonical/completion-text';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamReportedError, type ChatStreamDecoder, type TokenUsage } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import type { SseEvent } from '../provider-types';
import { ChunksBeforeFailure } from '../shared/chunks-before-failure';
import { JsonOrEventBody } from '../shared/json-or-event-body';
import { ToolCallNumbering } from '../shared/tool-call-numbering';
import { deltaChunk, finishChunks, type ChunkHead } from '../shared/stream-chunks';
import { convertDashScopeUsage } from './convert-dashscope-usage';
import { dashScopeText, parseDashScopeObject, readDashScopeResponse } from './convert-dashscope-response';
import { DASHSCOPE, type DashScopeResponse, type DashScopeToolCall } from './dashscope-wire-types';
import { mapDashScopeFinishReason } from './map-dashscope-finish-reason';
import { readDashScopeErrorObject } from './read-dashscope-error';
import { incompleteStreamError } from '../shared/incomplete-stream-error';

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
  const body = new JsonOrEventBody();
  let usage: TokenUsage | null = null;
  let id = '';
  let isStarted = false;
  let isFinished = false;
  const failures = new ChunksBeforeFailure();
  const created = Math.floor(Date.now() / 1000);

  const head = (): ChunkHead => ({ id, created, model: '' });

  function toolDeltas(calls: DashScopeToolCall[]): ToolCallDelta[] {
    return calls.map((call, position) =>
      toolCalls.delta(call.index ?? position, {
        id: call.id ?? '',
        name: call.function?.name ?? '',
        arguments: call.function?.arguments ?? '',
      }),
    );
  }

  function readEvent(event: SseEvent): ChatChunk[] {
    if (event.event === 'error') throw readErrorEvent(event);
    const data: DashScopeResponse = parseDashScopeObject(event.data, 'a stream event');
    id = data.request_id ?? id;
    usage = convertDashScopeUsage(data.usage) ?? usage;
    const choice = data.output?.choices?.[0];
    const message = choice?.message ?? {};
    const delta: ChatDelta = isStarted ? {} : { role: 'assistant' };
    isStarted = true;
    const text = dashScopeText(message.content);
    if (message.reasoning_content) delta.reasoning_content = message.reasoning_content;
    if (text) delta.content = text;
    if (message.tool_calls?.length) delta.tool_calls = toolDeltas(message.tool_calls);
    const chunks = Object.keys(delta).length > 0 ? [deltaChunk(head(), delta)] : [];
    const finish = mapDashScopeFinishReason(choice?.finish_reason);
    if (finish && !isFinished) {
      isFinished = true;
      chunks.push(...finishChunks(head(), finish, usage ? convertToChatUsage(usage) : null));
    }
    return chunks;
  }

  const readAll = (events: SseEvent[]) => failures.read(events, readEvent);

  return {
    push: (bytes) => (body.holdJson(bytes) ? [] : readAll(splitter.pushEvents(bytes))),
    end() {
      const json = body.json();
      if (json) {
        const answer = readDashScopeResponse(json);
        usage = answer.usage;
        return completionToChunks(answer.completion);
      }
      const chunks = readAll(splitter.endEvents());
      failures.throwPending();
      if (!isFinished) {
        throw incompleteStreamError(DASHSCOPE, isStarted, 'its finish reason');
      }
      return chunks;
    },
    usage: () => usage,
  };
}
