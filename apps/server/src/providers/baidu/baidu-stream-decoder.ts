import type { ChatChunk, ChatDelta } from '../../canonical/chat';
import { completionToChunks } from '../../canonical/completion-text';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import type { ChatStreamDecoder, TokenUsage } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { ChunksBeforeFailure } from '../shared/chunks-before-failure';
import { JsonOrEventBody } from '../shared/json-or-event-body';
import { deltaChunk, finishChunks, type ChunkHead } from '../shared/stream-chunks';
import { readOpenAIChatChunk } from '../openai-compatible/convert-openai-response';
import { convertOpenAIUsage } from '../openai-compatible/convert-openai-usage';
import { BAIDU, type BaiduChatResponse } from './baidu-wire-types';
import { convertBaiduUsage } from './convert-baidu-usage';
import { parseBaiduObject, readBaiduResponse, toBaiduToolCall } from './convert-baidu-response';
import { mapBaiduFinishReason } from './map-baidu-finish-reason';
import { incompleteStreamError } from '../shared/incomplete-stream-error';

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
  const body = new JsonOrEventBody();
  let usage: TokenUsage | null = null;
  let isStarted = false;
  let isEnded = false;
  let isOpenAI = false;
  const failures = new ChunksBeforeFailure();

  const headOf = (event: BaiduChatResponse): ChunkHead => ({
    id: event.id ?? '',
    created: event.created ?? Math.floor(Date.now() / 1000),
    model: '',
  });

  function readEvent(data: string): ChatChunk[] {
    if (data.trim() === '[DONE]') return [];
    const parsed = parseBaiduObject(data, 'a stream event');
    if (Array.isArray(parsed.choices)) {
      isOpenAI = true;
      const chunk = readOpenAIChatChunk(data);
      usage = convertOpenAIUsage(chunk.usage) ?? usage;
      return [chunk];
    }
    const event = parsed as BaiduChatResponse;
    usage = convertBaiduUsage(event.usage) ?? usage;
    const delta: ChatDelta = isStarted ? {} : { role: 'assistant' };
    isStarted = true;
    if (event.result) delta.content = event.result;
    if (event.function_call)
      delta.tool_calls = [{ index: 0, ...toBaiduToolCall(event.function_call, event.id ?? '') }];
    const chunks = Object.keys(delta).length > 0 ? [deltaChunk(headOf(event), delta)] : [];
    if (event.is_end) {
      isEnded = true;
      const finish = mapBaiduFinishReason(event.finish_reason, event.function_call !== undefined);
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
        const answer = readBaiduResponse(json);
        usage = answer.usage;
        return completionToChunks(answer.completion);
      }
      const chunks = readAll(splitter.end());
      failures.throwPending();
      if (!isEnded && !isOpenAI) {
        throw incompleteStreamError(BAIDU, isStarted, 'is_end');
      }
      return chunks;
    },
    usage: () => usage,
  };
}
