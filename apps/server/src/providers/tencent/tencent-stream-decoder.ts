import type { ChatChunk, ToolCallDelta } from '../../canonical/chat';
import {
  UpstreamFormatError,
  UpstreamReportedError,
  type ChatStreamDecoder,
} from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { ToolCallNumbering } from '../shared/tool-call-numbering';
import type { ChunkHead } from '../shared/stream-chunks';
import { createVendorChatStreamDecoder, type VendorChatTurn } from '../shared/vendor-chat-stream';
import { readTencentResponse } from './convert-tencent-response';
import { convertTencentUsage } from './convert-tencent-usage';
import { mapTencentFinishReason } from './map-tencent-finish-reason';
import { convertTencentError, findTencentError } from './read-tencent-error';
import { TENCENT, type HunyuanChatResponse, type HunyuanToolCall } from './tencent-wire-types';

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

  function readEvent(data: string, turn: VendorChatTurn): ChatChunk[] {
    const event = parseEvent(data);
    turn.noteUsage(convertTencentUsage(event.Usage));
    const choice = event.Choices?.[0];
    const source = choice?.Delta ?? {};
    const fields = {
      reasoning_content: source.ReasoningContent,
      content: source.Content,
      tool_calls: source.ToolCalls?.length ? toolDeltas(source.ToolCalls) : undefined,
    };
    return turn.chunks(headOf(event), fields, mapTencentFinishReason(choice?.FinishReason));
  }

  return createVendorChatStreamDecoder({
    vendor: TENCENT,
    finalEvent: 'its finish reason',
    split: { push: (bytes) => splitter.push(bytes), end: () => splitter.end() },
    readEvent,
    readAnswer: readTencentResponse,
  });
}
