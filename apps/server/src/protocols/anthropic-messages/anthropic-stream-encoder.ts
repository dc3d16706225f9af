import type { ChatChunk, ChatRequest, ChatUsage, FinishReason, ToolCallDelta } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import type { TokenUsage } from '../../canonical/translation';
import type {
  AnthropicContentDelta,
  AnthropicStreamEvent,
} from '../../providers/anthropic/anthropic-stream-events';
import type { AnthropicContentBlock } from '../../providers/anthropic/anthropic-wire-types';
import type { ClientStreamEncoder } from '../ingress-codec';
import { convertToAnthropicUsage } from './convert-to-anthropic-usage';
import { toAnthropicMessageId } from './encode-anthropic-message';
import { mapToAnthropicStopReason } from './map-to-anthropic-stop-reason';

/** The block being streamed: deltas of another kind close it and open the next. */
type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; toolIndex: number };

/** An SSE event as Anthropic writes them: the `event:` name is the event's type. */
export function writeAnthropicEvent(event: AnthropicStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

let toolIdCounter = 0;

/** For the rare vendor whose tool call delta has no id: Anthropic's SDKs expect one on every tool_use. */
const newToolUseId = () => `toolu_gh${Date.now().toString(36)}${(toolIdCounter += 1).toString(36)}`;

/**
 * Canonical chunks as Anthropic's event stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming),
 * one chunk at a time: message_start first (content empty; the input counts when the vendor already sent
 * them), then per block content_block_start, its deltas (text_delta, thinking_delta, signature_delta,
 * input_json_delta) and content_block_stop — a block is closed when the chunks switch to another kind or
 * another tool call — then message_delta with the stop reason and the usage (input counts too: OpenAI-style
 * vendors report them only at the end, and the SDKs take them from there) and message_stop.
 */
export function createAnthropicStreamEncoder(request: ChatRequest): ClientStreamEncoder {
  let isStarted = false;
  let open: OpenBlock | null = null;
  let nextIndex = 0;
  let finishReason: FinishReason | null = null;
  let hasToolCalls = false;
  let reportedUsage: ChatUsage | null = null;

  const start = (chunk: ChatChunk | null): string => {
    isStarted = true;
    return writeAnthropicEvent({
      type: 'message_start',
      message: {
        id: toAnthropicMessageId(chunk?.id || `gh${Date.now().toString(36)}`),
        type: 'message',
        role: 'assistant',
        model: chunk?.model || request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: convertToAnthropicUsage(chunk?.usage),
      },
    });
  };

  const close = (): string => {
    if (!open) return '';
    open = null;
    return writeAnthropicEvent({ type: 'content_block_stop', index: nextIndex - 1 });
  };

  const openBlock = (block: OpenBlock, contentBlock: AnthropicContentBlock): string => {
    const text = close();
    open = block;
    nextIndex += 1;
    return (
      text +
      writeAnthropicEvent({ type: 'content_block_start', index: nextIndex - 1, content_block: contentBlock })
    );
  };

  const delta = (contentDelta: AnthropicContentDelta): string =>
    writeAnthropicEvent({ type: 'content_block_delta', index: nextIndex - 1, delta: contentDelta });

  const text = (value: string): string =>
    (open?.kind === 'text' ? '' : openBlock({ kind: 'text' }, { type: 'text', text: '' })) +
    delta({ type: 'text_delta', text: value });

  const ensureThinking = (): string =>
    open?.kind === 'thinking'
      ? ''
      : openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });

  const toolCall = (call: ToolCallDelta): string => {
    hasToolCalls = true;
    let out = '';
    if (open?.kind !== 'tool' || open.toolIndex !== call.index) {
      out += openBlock(
        { kind: 'tool', toolIndex: call.index },
        { type: 'tool_use', id: call.id || newToolUseId(), name: call.function?.name ?? '', input: {} },
      );
    }
    const partial = call.function?.arguments;
    return partial ? out + delta({ type: 'input_json_delta', partial_json: partial }) : out;
  };

  return {
    encode(chunk) {
      let out = isStarted ? '' : start(chunk);
      if (chunk.usage) reportedUsage = chunk.usage;
      for (const choice of chunk.choices) {
        // Anthropic answers one message: other choices (n > 1) have no place in its stream.
        if (choice.index !== 0) continue;
        const { delta: chatDelta } = choice;
        if (chatDelta.reasoning_content) {
          out += ensureThinking() + delta({ type: 'thinking_delta', thinking: chatDelta.reasoning_content });
        }
        if (chatDelta.reasoning_signature) {
          out +=
            ensureThinking() + delta({ type: 'signature_delta', signature: chatDelta.reasoning_signature });
        }
        if (chatDelta.redacted_thinking !== undefined) {
          out +=
            openBlock(
              { kind: 'thinking' },
              { type: 'redacted_thinking', data: chatDelta.redacted_thinking },
            ) + close();
        }
        if (chatDelta.content) out += text(chatDelta.content);
        if (chatDelta.refusal) out += text(chatDelta.refusal);
        for (const call of chatDelta.tool_calls ?? []) out += toolCall(call);
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      return out;
    },
    finish(usage: TokenUsage | null) {
      const finalUsage = usage ? convertToChatUsage(usage) : reportedUsage;
      return (
        (isStarted ? '' : start(null)) +
        close() +
        writeAnthropicEvent({
          type: 'message_delta',
          delta: { stop_reason: mapToAnthropicStopReason(finishReason, hasToolCalls), stop_sequence: null },
          usage: convertToAnthropicUsage(finalUsage),
        }) +
        writeAnthropicEvent({ type: 'message_stop' })
      );
    },
  };
}
