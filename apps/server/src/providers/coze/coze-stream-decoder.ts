import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, type ChatStreamDecoder, type TokenUsage } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import type { SseEvent } from '../provider-types';
import { ChunksBeforeFailure } from '../shared/chunks-before-failure';
import { deltaChunk, finishChunks, type ChunkHead } from '../shared/stream-chunks';
import { CozeReportedError } from './coze-reported-error';
import type { CozeChat, CozeChatMessage, CozeError } from './coze-wire-types';
import { convertCozeUsage } from './convert-coze-usage';
import { readStreamTail } from '../shared/read-stream-tail';
import { incompleteStreamError } from '../shared/incomplete-stream-error';

function parseData<T>(event: SseEvent): T {
  try {
    const data: unknown = JSON.parse(event.data);
    if (typeof data === 'object' && data !== null) return data as T;
  } catch {
    // reported below
  }
  throw new UpstreamFormatError(`Coze sent a ${event.event ?? 'nameless'} event whose data is not JSON`);
}

/** A 2xx answer that is Coze's `{code, msg}` instead of a stream: the call was refused. */
function readRefusal(text: string): CozeReportedError | UpstreamFormatError {
  try {
    const body = JSON.parse(text) as Partial<CozeError>;
    if (typeof body.code === 'number' && body.code !== 0) return CozeReportedError.of(body.code, body.msg);
  } catch {
    // reported below
  }
  return new UpstreamFormatError('Coze answered JSON where a chat stream was expected');
}

/**
 * Decodes Coze's chat v3 stream (https://www.coze.com/docs/developer_guides/chat_v3) into canonical chunks:
 * conversation.chat.created → the role chunk (the chat id as the completion id);
 * conversation.message.delta of the answer → content (and reasoning_content); an answer message that came
 * whole in conversation.message.completed, without deltas (a card), → its content; conversation.chat.completed
 * → the stop and a usage-only chunk. Knowledge recalls, plugin calls, follow-up suggestions and verbose
 * messages are the bot's own business and skipped. conversation.chat.failed, an `error` event and a `{code,
 * msg}` body instead of a stream throw CozeReportedError; requires_action (a local plugin the gateway cannot
 * run) too. A stream that ends before the chat completes throws UpstreamFormatError from end().
 */
export function createCozeStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  const created = Math.floor(Date.now() / 1000);
  const streamedMessages = new Set<string>();
  let mode: 'unknown' | 'sse' | 'json' = 'unknown';
  let jsonText = '';
  let id = '';
  let usage: TokenUsage | null = null;
  let isStarted = false;
  let isCompleted = false;
  const failures = new ChunksBeforeFailure();

  const head = (): ChunkHead => ({ id, created, model: '' });
  const chunk = (delta: ChatDelta, finishReason: FinishReason | null = null) =>
    deltaChunk(head(), delta, finishReason);

  function readMessage(event: SseEvent): ChatChunk[] {
    const message = parseData<CozeChatMessage>(event);
    if (message.role !== 'assistant' || message.type !== 'answer') return [];
    if (event.event === 'conversation.message.delta') {
      streamedMessages.add(message.id);
      const delta: ChatDelta = {};
      if (message.reasoning_content) delta.reasoning_content = message.reasoning_content;
      if (message.content) delta.content = message.content;
      return Object.keys(delta).length > 0 ? [chunk(delta)] : [];
    }
    return streamedMessages.has(message.id) || !message.content ? [] : [chunk({ content: message.content })];
  }

  function read(event: SseEvent): ChatChunk[] {
    switch (event.event) {
      case 'conversation.chat.created':
        isStarted = true;
        id = parseData<CozeChat>(event).id ?? '';
        return [chunk({ role: 'assistant', content: '' })];
      case 'conversation.message.delta':
      case 'conversation.message.completed':
        return readMessage(event);
      case 'conversation.chat.completed': {
        isCompleted = true;
        usage = convertCozeUsage(parseData<CozeChat>(event).usage);
        return finishChunks(head(), 'stop', usage ? convertToChatUsage(usage) : null);
      }
      case 'conversation.chat.failed': {
        const { last_error: error } = parseData<CozeChat>(event);
        throw CozeReportedError.of(error?.code, error?.msg || 'the chat failed');
      }
      case 'conversation.chat.requires_action':
        throw CozeReportedError.of(
          4000,
          'the bot asked for the result of a local plugin, which the gateway cannot run',
        );
      case 'error': {
        const error = parseData<Partial<CozeError>>(event);
        throw CozeReportedError.of(error.code, error.msg);
      }
      default:
        return [];
    }
  }

  const readAll = (events: SseEvent[]) => failures.read(events, read);

  function push(bytes: Buffer): ChatChunk[] {
    if (mode === 'unknown') {
      const text = bytes.toString('utf8').trimStart();
      if (text === '') return [];
      mode = text.startsWith('{') ? 'json' : 'sse';
    }
    if (mode === 'json') {
      jsonText += bytes.toString('latin1');
      return [];
    }
    return readAll(splitter.pushEvents(bytes));
  }

  return {
    push,
    end() {
      if (mode === 'json') throw readRefusal(Buffer.from(jsonText, 'latin1').toString('utf8'));
      const chunks = readStreamTail(
        () => readAll(splitter.endEvents()),
        () => isCompleted,
        (error) => error instanceof CozeReportedError,
      );
      failures.throwPending();
      if (!isCompleted) {
        throw incompleteStreamError('Coze', isStarted, 'the chat completed');
      }
      return chunks;
    },
    usage: () => usage,
  };
}
