import type { ChatChunk, ChatDelta, FinishReason } from '../../canonical/chat';
import { UpstreamFormatError, type ChatStreamDecoder, type TokenUsage } from '../../canonical/translation';
import { ToolCallNumbering } from '../shared/tool-call-numbering';
import { deltaChunk, usageChunk, type ChunkHead } from '../shared/stream-chunks';
import type { BedrockStreamEvents } from './bedrock-converse-types';
import { BEDROCK } from './bedrock-converse-types';
import { EventStreamFrameSplitter, type EventStreamMessage } from './bedrock-event-stream-frames';
import { createBedrockCompletionId } from './convert-from-bedrock-response';
import { BedrockStreamError, describeBedrockError, normalizeBedrockErrorType } from './map-bedrock-error';
import { mapBedrockStopReason } from './map-bedrock-stop-reason';
import { mapBedrockUsage, toChatUsage } from './map-bedrock-usage';

function header(message: EventStreamMessage, name: string): string {
  const value = message.headers[name];
  return value?.type === 'string' ? value.value : '';
}

function parsePayload(message: EventStreamMessage, eventType: string): Record<string, unknown> {
  try {
    const payload: unknown = JSON.parse(Buffer.from(message.body).toString('utf8'));
    if (typeof payload === 'object' && payload !== null) return payload as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UpstreamFormatError(
    `${BEDROCK} streamed a ${eventType || 'nameless'} event whose payload is not JSON`,
  );
}

/** `:message-type: exception` (an exception event) or `error` (a protocol error): the stream failed. */
function toStreamError(message: EventStreamMessage, messageType: string): BedrockStreamError {
  if (messageType === 'error') {
    const code = header(message, ':error-code');
    return new BedrockStreamError(describeBedrockError(code, 500, header(message, ':error-message') || code));
  }
  const type = normalizeBedrockErrorType(header(message, ':exception-type'));
  const payload = parsePayload(message, type);
  const text = typeof payload.message === 'string' ? payload.message : type;
  return new BedrockStreamError(describeBedrockError(type, 500, text));
}

/**
 * ConverseStream (binary AWS event stream) → OpenAI chat chunks, event by event
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_ResponseSyntax).
 * Tool calls are numbered in the order their blocks start; the metadata event's usage becomes a choice-less
 * usage chunk. An exception event throws BedrockStreamError, after the chunks of the events before it (on the
 * next push or at the end when they came in the same bytes). Chunks name no model (the relay fills it in).
 */
export function createBedrockStreamDecoder(): ChatStreamDecoder {
  const frames = new EventStreamFrameSplitter();
  const id = createBedrockCompletionId();
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = new ToolCallNumbering();
  let usage: TokenUsage | null = null;

  const head = (): ChunkHead => ({ id, created, model: '' });
  const chunk = (delta: ChatDelta, finishReason: FinishReason | null = null) =>
    deltaChunk(head(), delta, finishReason);

  const toolIndex = (blockIndex: number): number => {
    const index = toolCalls.find(blockIndex);
    if (index === undefined)
      throw new UpstreamFormatError(`${BEDROCK} streamed tool input for a block it never started`);
    return index;
  };

  /** One event's JSON payload, typed by its `:event-type` (BedrockStreamEvents). */
  function readEvent(type: string, event: Record<string, unknown>): ChatChunk[] {
    switch (type) {
      case 'messageStart':
        return [chunk({ role: 'assistant', content: '' })];
      case 'contentBlockStart': {
        const { contentBlockIndex, start } = event as unknown as BedrockStreamEvents['contentBlockStart'];
        if (!start?.toolUse) return [];
        const index = toolCalls.start(contentBlockIndex);
        const { toolUseId, name } = start.toolUse;
        return [
          chunk({
            tool_calls: [{ index, id: toolUseId, type: 'function', function: { name, arguments: '' } }],
          }),
        ];
      }
      case 'contentBlockDelta': {
        const { contentBlockIndex, delta } = event as unknown as BedrockStreamEvents['contentBlockDelta'];
        if (delta?.text !== undefined) return [chunk({ content: delta.text })];
        if (delta?.toolUse) {
          const index = toolIndex(contentBlockIndex);
          return [chunk({ tool_calls: [{ index, function: { arguments: delta.toolUse.input } }] })];
        }
        const reasoning = delta?.reasoningContent;
        if (reasoning?.text !== undefined) return [chunk({ reasoning_content: reasoning.text })];
        if (reasoning?.signature !== undefined) return [chunk({ reasoning_signature: reasoning.signature })];
        if (reasoning?.redactedContent !== undefined)
          return [chunk({ redacted_thinking: reasoning.redactedContent })];
        return [];
      }
      case 'messageStop': {
        const { stopReason } = event as unknown as BedrockStreamEvents['messageStop'];
        return [chunk({}, mapBedrockStopReason(stopReason))];
      }
      case 'metadata': {
        usage = mapBedrockUsage(event.usage) ?? usage;
        return usage ? [usageChunk(head(), toChatUsage(usage))] : [];
      }
      default:
        // contentBlockStop, and event types added after this was written
        return [];
    }
  }

  /** An exception read behind other events of the same bytes: thrown once those events are delivered. */
  let failure: BedrockStreamError | null = null;

  return {
    push(bytes) {
      if (failure) throw failure;
      const chunks: ChatChunk[] = [];
      for (const message of frames.push(bytes)) {
        const messageType = header(message, ':message-type') || 'event';
        if (messageType !== 'event') {
          failure = toStreamError(message, messageType);
          if (chunks.length === 0) throw failure;
          break;
        }
        const eventType = header(message, ':event-type');
        chunks.push(...readEvent(eventType, parsePayload(message, eventType)));
      }
      return chunks;
    },
    end() {
      if (failure) throw failure;
      frames.end();
      return [];
    },
    usage: () => usage,
  };
}
