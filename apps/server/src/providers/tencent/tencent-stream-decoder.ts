import type { ChatChunk, ChatDelta, ToolCallDelta } from '../../canonical/chat';
import { completionToChunks } from '../../canonical/completion-text';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import {
  UpstreamFormatError,
  UpstreamReportedError,
  type ChatStreamDecoder,
  type TokenUsage,
} from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { ChunksBeforeFailure } from '../shared/chunks-before-failure';
import { JsonOrEventBody } from '../shared/json-or-event-body';
import { ToolCallNumbering } from '../shared/tool-call-numbering';
import { deltaChunk, finishChunks, type ChunkHead } from '../shared/stream-chunks';
import { readTencentResponse } from './convert-tencent-response';
import { convertTencentUsage } from './convert-tencent-usage';
import { mapTencentFinishReason } from './map-tencent-finish-reason';
import { convertTencentError, findTencentError } from './read-tencent-error';
import { TENCENT, type HunyuanChatResponse, type HunyuanToolCall } from './tencent-wire-types';
import { incompleteStreamError } from '../shared/incomplete-stream-error';

function parseEvent(data: string): HunyuanChatResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new UpstreamFormatError(`${TENCENT} sent a stream event that is not JSON`);
  }
  const error = findTencentError(parsed);
  if (error) throw new UpstreamReportedError(TENCENT, convertTencentError(error));
  const event = parsed as HunyuanChatResponse;
  if (event.ErrorMsg) {
    const code = String(event.ErrorMsg.Code ?? '');
    throw new UpstreamReportedError(TENCENT, {
      message: event.ErrorMsg.Msg || `Hunyuan stream error ${code}`,
      type: 'hunyuan_stream_error',
      code,
      kind: 'server',
    });
  }
  return event;
}

/**
 * Decodes ChatCompletions' SSE stream (`data: {Id, Choices: [{Delta: {Role, Content, ReasoningContent,
 * ToolCalls}, FinishReason}], Usage}`, https://cloud.tencent.com/document/api/1729/105701, Stream) into
 * canonical chunks, with the usage of the last event (each carries the counts so far) and a usage-only chunk
 * after the finish reason. A failure before the stream starts is one JSON answer with Response.Error (HTTP
 * 200), thrown as UpstreamReportedError; an ErrorMsg in the middle is thrown after the chunks before it. A
 * stream without a finish reason throws UpstreamFormatError from end().
 */
export function createTencentStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  const toolCalls = new ToolCallNumbering();
  const body = new JsonOrEventBody();
  let usage: TokenUsage | null = null;
  let isStarted = false;
  let isFinished = false;
  const failures = new ChunksBeforeFailure();

  const headOf = (event: HunyuanChatResponse): ChunkHead => ({
    id: event.Id ?? '',
    created: event.Created ?? Math.floor(Date.now() / 1000),
    model: '',
  });

  /** A call is whole in its first delta (Id, name, arguments); later deltas of its Index add arguments. */
  function toolDeltas(calls: HunyuanToolCall[]): ToolCallDelta[] {
    return calls.map((call, position) =>
      toolCalls.delta(call.Index ?? position, {
        id: call.Id,
        name: call.Function?.Name ?? '',
        arguments: call.Function?.Arguments ?? '',
      }),
    );
  }

  function readEvent(data: string): ChatChunk[] {
    const event = parseEvent(data);
    usage = convertTencentUsage(event.Usage) ?? usage;
    const choice = event.Choices?.[0];
    const chunks: ChatChunk[] = [];
    const delta: ChatDelta = isStarted ? {} : { role: 'assistant' };
    isStarted = true;
    const source = choice?.Delta ?? {};
    if (source.ReasoningContent) delta.reasoning_content = source.ReasoningContent;
    if (source.Content) delta.content = source.Content;
    if (source.ToolCalls?.length) delta.tool_calls = toolDeltas(source.ToolCalls);
    if (Object.keys(delta).length > 0) chunks.push(deltaChunk(headOf(event), delta));
    const finish = mapTencentFinishReason(choice?.FinishReason);
    if (finish && !isFinished) {
      isFinished = true;
      chunks.push(...finishChunks(headOf(event), finish, usage ? convertToChatUsage(usage) : null));
    }
    return chunks;
  }

  const readAll = (payloads: string[]) => failures.read(payloads, readEvent);

  return {
    push: (bytes) => (body.holdJson(bytes) ? [] : readAll(splitter.push(bytes))),
    end() {
      const json = body.json();
      if (json) {
        const answer = readTencentResponse(json);
        usage = answer.usage;
        return completionToChunks(answer.completion);
      }
      const chunks = readAll(splitter.end());
      failures.throwPending();
      if (!isFinished) {
        throw incompleteStreamError(TENCENT, isStarted, 'its finish reason');
      }
      return chunks;
    },
    usage: () => usage,
  };
}
