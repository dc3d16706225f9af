/**
 * The events of a streamed Messages answer (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
 * message_start, then per content block content_block_start, content_block_delta …, content_block_stop, then
 * message_delta and message_stop; ping at any time, and error when the stream fails after its 200.
 */
import type {
  AnthropicContentBlock,
  AnthropicErrorBody,
  AnthropicMessage,
  AnthropicStopReason,
  AnthropicUsage,
} from './anthropic-wire-types';

/** The usage of a message_delta event: cumulative counts, input ones possibly null. */
export type AnthropicDeltaUsage = Partial<{
  [field in keyof AnthropicUsage]: AnthropicUsage[field] | null;
}> & { output_tokens: number };

export type AnthropicContentDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: unknown };

export interface AnthropicMessageStartEvent {
  type: 'message_start';
  /** content empty, stop_reason null, usage with the input counts */
  message: AnthropicMessage;
}

export interface AnthropicContentBlockStartEvent {
  type: 'content_block_start';
  index: number;
  /** text empty, tool_use input {} */
  content_block: AnthropicContentBlock;
}

export interface AnthropicContentBlockDeltaEvent {
  type: 'content_block_delta';
  index: number;
  delta: AnthropicContentDelta;
}

export interface AnthropicContentBlockStopEvent {
  type: 'content_block_stop';
  index: number;
}

export interface AnthropicMessageDeltaEvent {
  type: 'message_delta';
  delta: { stop_reason: AnthropicStopReason | null; stop_sequence: string | null };
  usage: AnthropicDeltaUsage;
}

export interface AnthropicMessageStopEvent {
  type: 'message_stop';
}

export interface AnthropicPingEvent {
  type: 'ping';
}

/**
 * One server-sent event of a stream; its SSE `event:` name equals `type`. Anthropic may add event types:
 * readers skip the ones they do not know.
 */
export type AnthropicStreamEvent =
  | AnthropicMessageStartEvent
  | AnthropicContentBlockStartEvent
  | AnthropicContentBlockDeltaEvent
  | AnthropicContentBlockStopEvent
  | AnthropicMessageDeltaEvent
  | AnthropicMessageStopEvent
  | AnthropicPingEvent
  | AnthropicErrorBody;
