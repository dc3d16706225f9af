import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, type ChatStreamDecoder, type TokenUsage } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { ChunksBeforeFailure } from '../shared/chunks-before-failure';
import { parseTypedStreamEvent } from '../shared/parse-typed-stream-event';
import { ToolCallNumbering } from '../shared/tool-call-numbering';
import { deltaChunk, finishChunks, type ChunkHead } from '../shared/stream-chunks';
import { CohereReportedError } from './cohere-reported-error';
import type { CohereStreamEvent } from './cohere-wire-types';
import { convertCohereUsage } from './convert-cohere-usage';
import { mapCohereFinishReason } from './map-cohere-finish-reason';
import { readStreamTail } from '../shared/read-stream-tail';
import { incompleteStreamError } from '../shared/incomplete-stream-error';

function parseEvent(data: string): CohereStreamEvent | null {
  if (data.trim() === '[DONE]') return null;
  return parseTypedStreamEvent<CohereStreamEvent>(data, 'Cohere');
}

/**
 * Decodes Cohere's v2 chat stream (https://docs.cohere.com/docs/streaming,
 * https://docs.cohere.com/docs/tool-use-streaming) into canonical chunks: message-start → the role chunk;
 * content deltas → content (thinking items → reasoning_content); tool-plan deltas → content (the words
 * before the calls); tool-call-start/delta → tool call deltas numbered in order; message-end → the finish
 * reason and a usage-only chunk. Citations and unknown events are skipped. A finish reason of ERROR or
 * TIMEOUT throws CohereReportedError once the chunks before it are answered; a stream without message-end
 * throws UpstreamFormatError from end().
 */
export function createCohereStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = new ToolCallNumbering();
  let id = '';
  let usage: TokenUsage | null = null;
  let isStarted = false;
  let isEnded = false;
  const failures = new ChunksBeforeFailure();

  const head = (): ChunkHead => ({ id, created, model: '' });
  const chunk = (delta: ChatDelta, finishReason: FinishReason | null = null) =>
    deltaChunk(head(), delta, finishReason);

  function readToolCall(event: Extract<CohereStreamEvent, { type: 'tool-call-start' | 'tool-call-delta' }>) {
    const call = event.delta?.message?.tool_calls;
    const position = event.index ?? 0;
    if (event.type === 'tool-call-start') {
      const index = toolCalls.start(position);
      return [
        chunk({
          tool_calls: [
            {
              index,
              id: call?.id ?? '',
              type: 'function',
              function: { name: call?.function?.name ?? '', arguments: call?.function?.arguments ?? '' },
            },
          ],
        }),
      ];
    }
    const index = toolCalls.find(position);
    if (index === undefined)
      throw new UpstreamFormatError('Cohere streamed arguments of a tool call it never started');
    const piece = call?.function?.arguments ?? '';
    return piece ? [chunk({ tool_calls: [{ index, function: { arguments: piece } }] })] : [];
  }

  function read(event: CohereStreamEvent): ChatChunk[] {
    switch (event.type) {
      case 'message-start':
        isStarted = true;
        id = event.id ?? '';
        return [chunk({ role: 'assistant', content: '' })];
      case 'content-start':
      case 'content-delta': {
        const content = event.delta?.message?.content;
        if (content?.thinking) return [chunk({ reasoning_content: content.thinking })];
        return content?.text ? [chunk({ content: content.text })] : [];
      }
      case 'tool-plan-delta': {
        const plan = event.delta?.message?.tool_plan;
        return plan ? [chunk({ content: plan })] : [];
      }
      case 'tool-call-start':
      case 'tool-call-delta':
        return readToolCall(event);
      case 'message-end': {
        isEnded = true;
        usage = convertCohereUsage(event.delta?.usage);
        const finish = mapCohereFinishReason(event.delta?.finish_reason, event.delta?.error);
        return finishChunks(head(), finish, usage ? convertToChatUsage(usage) : null);
      }
      default:
        return [];
    }
  }

  const readAll = (payloads: string[]) =>
    failures.read(payloads, (data) => {
      const event = parseEvent(data);
      return event ? read(event) : [];
    });

  return {
    push: (bytes) => readAll(splitter.push(bytes)),
    end() {
      const chunks = readStreamTail(
        () => readAll(splitter.end()),
        () => isEnded,
        (error) => error instanceof CohereReportedError,
      );
      failures.throwPending();
      if (!isEnded) {
        throw incompleteStreamError('Cohere', isStarted, 'message-end');
      }
      return chunks;
    },
    usage: () => usage,
  };
}
