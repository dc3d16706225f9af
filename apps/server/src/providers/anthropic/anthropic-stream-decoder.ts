import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import {
  UpstreamFormatError,
  type ChatStreamDecoder,
  type TokenUsage,
  type UpstreamErrorDetails,
} from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { parseTypedStreamEvent } from '../shared/parse-typed-stream-event';
import { deltaChunk, usageChunk, type ChunkHead } from '../shared/stream-chunks';
import { AnthropicReportedError } from './anthropic-reported-error';
import type { AnthropicContentDelta, AnthropicStreamEvent } from './anthropic-stream-events';
import type { AnthropicContentBlock } from './anthropic-wire-types';
import { TEXT_SEPARATOR } from './convert-anthropic-response';
import { convertAnthropicUsage, convertToChatUsage, mergeAnthropicUsage } from './convert-anthropic-usage';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { readAnthropicErrorObject } from './read-anthropic-error';
import { readStreamTail } from '../shared/read-stream-tail';
import { incompleteStreamError } from '../shared/incomplete-stream-error';

/** A tool_use block of the stream: its position among the tool calls, and whether its input has come. */
interface ToolBlock {
  toolIndex: number;
  hasArguments: boolean;
  /** the input of content_block_start, used when no input_json_delta follows */
  startInput: unknown;
}

const UNKNOWN_ERROR: UpstreamErrorDetails = { message: 'unknown error', type: '', code: '', kind: 'unknown' };

function requireObject<T>(value: T, eventType: string): T {
  if (typeof value !== 'object' || value === null) {
    throw new UpstreamFormatError(`Anthropic sent a ${eventType} event without its content`);
  }
  return value;
}

/**
 * Decodes Anthropic's event stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming) into
 * canonical chunks, one event at a time: message_start → the role chunk; text, thinking and signature deltas →
 * content, reasoning_content and reasoning_signature; a redacted thinking block → redacted_thinking; tool_use
 * blocks → tool call deltas numbered among tool calls only; texts a tool block separated are joined by a
 * blank line, as in JSON answers; message_delta → the finish reason; message_stop → a usage-only chunk
 * (`choices: []`, as OpenAI sends it when asked). Blocks of server tools are skipped, and so are event types
 * Anthropic may add. An `error` event (overloaded mid-stream) throws AnthropicReportedError once the chunks
 * before it are answered; a stream that ends before message_stop throws UpstreamFormatError from end().
 */
export function createAnthropicStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  const toolBlocks = new Map<number, ToolBlock>();
  let toolCount = 0;
  let id = '';
  let model = '';
  const created = Math.floor(Date.now() / 1000);
  let rawUsage: Record<string, unknown> | null = null;
  let hasText = false;
  let isTextInterrupted = false;
  let isStarted = false;
  let reportedError: AnthropicReportedError | null = null;
  let isStopped = false;

  const head = (): ChunkHead => ({ id, created, model });
  const chunk = (delta: ChatDelta, finishReason: FinishReason | null = null) =>
    deltaChunk(head(), delta, finishReason);

  function startBlock(index: number, block: AnthropicContentBlock): ChatChunk | null {
    isTextInterrupted ||= hasText && block.type !== 'text';
    switch (block.type) {
      case 'text': {
        const text = isTextInterrupted ? `${TEXT_SEPARATOR}${block.text}` : block.text;
        hasText = true;
        isTextInterrupted = false;
        return text ? chunk({ content: text }) : null;
      }
      case 'thinking':
        return block.thinking ? chunk({ reasoning_content: block.thinking }) : null;
      case 'redacted_thinking':
        return chunk({ redacted_thinking: block.data });
      case 'tool_use': {
        const toolIndex = toolCount++;
        toolBlocks.set(index, { toolIndex, hasArguments: false, startInput: block.input });
        return chunk({
          tool_calls: [
            {
              index: toolIndex,
              id: block.id,
              type: 'function',
              function: { name: block.name, arguments: '' },
            },
          ],
        });
      }
      default:
        return null;
    }
  }

  function readDelta(index: number, delta: AnthropicContentDelta): ChatChunk | null {
    switch (delta.type) {
      case 'text_delta':
        return chunk({ content: delta.text });
      case 'thinking_delta':
        return chunk({ reasoning_content: delta.thinking });
      case 'signature_delta':
        return chunk({ reasoning_signature: delta.signature });
      case 'input_json_delta': {
        const tool = toolBlocks.get(index);
        if (!tool || delta.partial_json === '') return null;
        tool.hasArguments = true;
        return chunk({
          tool_calls: [{ index: tool.toolIndex, function: { arguments: delta.partial_json } }],
        });
      }
      default:
        return null;
    }
  }

  /** A tool without parameters may get no input_json_delta at all; its arguments are then its start input. */
  function stopBlock(index: number): ChatChunk | null {
    const tool = toolBlocks.get(index);
    if (!tool || tool.hasArguments) return null;
    const input = tool.startInput ?? {};
    return chunk({ tool_calls: [{ index: tool.toolIndex, function: { arguments: JSON.stringify(input) } }] });
  }

  function read(data: string): ChatChunk | null {
    const event = parseTypedStreamEvent<AnthropicStreamEvent>(data, 'Anthropic');
    switch (event.type) {
      case 'message_start':
        isStarted = true;
        id = event.message?.id ?? '';
        model = event.message?.model ?? '';
        rawUsage = mergeAnthropicUsage(null, event.message?.usage);
        return chunk({ role: 'assistant', content: '' });
      case 'content_block_start':
        return startBlock(event.index, requireObject(event.content_block, event.type));
      case 'content_block_delta':
        return readDelta(event.index, requireObject(event.delta, event.type));
      case 'content_block_stop':
        return stopBlock(event.index);
      case 'message_delta':
        rawUsage = mergeAnthropicUsage(rawUsage, event.usage);
        return event.delta?.stop_reason ? chunk({}, mapAnthropicStopReason(event.delta.stop_reason)) : null;
      case 'message_stop': {
        isStopped = true;
        const usage = convertAnthropicUsage(rawUsage);
        return usage ? usageChunk(head(), convertToChatUsage(usage)) : null;
      }
      case 'error':
        reportedError = new AnthropicReportedError(readAnthropicErrorObject(event) ?? UNKNOWN_ERROR);
        return null;
      default:
        return null;
    }
  }

  /** What came before an error event is answered first; the error is thrown by the next call. */
  function readAll(payloads: string[]): ChatChunk[] {
    if (reportedError) throw reportedError;
    const chunks: ChatChunk[] = [];
    for (const data of payloads) {
      const decoded = read(data);
      if (decoded) chunks.push(decoded);
      if (reportedError) break;
    }
    return chunks;
  }

  return {
    push: (bytes) => readAll(splitter.push(bytes)),
    end() {
      const chunks = readStreamTail(
        () => readAll(splitter.end()),
        () => isStopped,
        (error) => error instanceof AnthropicReportedError,
      );
      if (reportedError) throw reportedError;
      if (!isStopped) {
        throw incompleteStreamError('Anthropic', isStarted, 'message_stop');
      }
      return chunks;
    },
    usage: (): TokenUsage | null => convertAnthropicUsage(rawUsage),
  };
}
