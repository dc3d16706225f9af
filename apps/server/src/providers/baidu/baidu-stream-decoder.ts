import type { ChatChunk } from '../../canonical/chat';
import type { ChatStreamDecoder } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import type { ChunkHead } from '../shared/stream-chunks';
import { createVendorChatStreamDecoder, type VendorChatTurn } from '../shared/vendor-chat-stream';
import { readOpenAIChatChunk } from '../openai-compatible/convert-openai-response';
import { convertOpenAIUsage } from '../openai-compatible/convert-openai-usage';
import { BAIDU, type BaiduChatResponse } from './baidu-wire-types';
import { convertBaiduUsage } from './convert-baidu-usage';
import { parseBaiduObject, readBaiduResponse, toBaiduToolCall } from './convert-baidu-response';
import { mapBaiduFinishReason } from './map-baidu-finish-reason';

/**
 * Decodes ERNIE's stream (`data: {…, "result": "<new text>", "is_end": false, "usage": {…}}` events,
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/jlil56u11) into canonical chunks: the text of each event as
 * content, a function_call as one whole tool call, the finish reason and a usage-only chunk at `is_end`.
 * Each event carries the usage so far; the last one counts. A failure is not an event: Baidu answers the
 * stream request with one JSON error object (HTTP 200), thrown as UpstreamReportedError; an error event in the
 * middle is thrown after the chunks before it. Events with `choices` are Qianfan's v2 (OpenAI) stream of a
 * one-key channel, read as OpenAI's. A stream cut before `is_end` throws UpstreamFormatError from end().
 */
export function createBaiduStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  let isOpenAI = false;

  const headOf = (event: BaiduChatResponse): ChunkHead => ({
    id: event.id ?? '',
    created: event.created ?? Math.floor(Date.now() / 1000),
    model: '',
  });

  function readEvent(data: string, turn: VendorChatTurn): ChatChunk[] {
    if (data.trim() === '[DONE]') return [];
    const parsed = parseBaiduObject(data, 'a stream event');
    if (Array.isArray(parsed.choices)) {
      isOpenAI = true;
      const chunk = readOpenAIChatChunk(data);
      turn.noteUsage(convertOpenAIUsage(chunk.usage));
      return [chunk];
    }
    const event = parsed as BaiduChatResponse;
    turn.noteUsage(convertBaiduUsage(event.usage));
    const toolCalls = event.function_call
      ? [{ index: 0, ...toBaiduToolCall(event.function_call, event.id ?? '') }]
      : undefined;
    const finish = event.is_end
      ? mapBaiduFinishReason(event.finish_reason, event.function_call !== undefined)
      : null;
    return turn.chunks(headOf(event), { content: event.result, tool_calls: toolCalls }, finish);
  }

  return createVendorChatStreamDecoder({
    vendor: BAIDU,
    finalEvent: 'is_end',
    split: { push: (bytes) => splitter.push(bytes), end: () => splitter.end() },
    readEvent,
    readAnswer: readBaiduResponse,
    isWholeWithoutFinish: () => isOpenAI,
  });
}
