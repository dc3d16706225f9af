import type { AssistantMessage, ChatCompletion } from '../../canonical/chat';
import type { AnthropicContentBlock, AnthropicMessage } from '../../providers/anthropic/anthropic-wire-types';
import { convertToAnthropicUsage } from './convert-to-anthropic-usage';
import { mapToAnthropicStopReason } from './map-to-anthropic-stop-reason';

/** Anthropic's message ids start with msg_; the SDKs and Claude Code do not read more into them. */
export function toAnthropicMessageId(id: string): string {
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

/**
 * Tool arguments as the JSON object Anthropic's tool_use input is. Arguments a vendor cut or wrote as
 * something else than an object cannot be an input: {} then, as Anthropic itself sends for a tool without
 * parameters.
 */
export function parseToolInput(text: string): Record<string, unknown> {
  try {
    const input: unknown = JSON.parse(text);
    return typeof input === 'object' && input !== null && !Array.isArray(input)
      ? (input as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The blocks of an answer in Anthropic's order: thinking (with its signature; the reasoning_content of
 * OpenAI-compatible vendors as thinking without one), then text, then tool uses.
 */
export function convertToAnthropicContent(message: AssistantMessage): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  if (message.reasoning_content) {
    blocks.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  }
  const { content } = message;
  if (typeof content === 'string') {
    if (content !== '') blocks.push({ type: 'text', text: content });
  } else if (content) {
    for (const part of content) {
      if (part.type === 'thinking') {
        blocks.push({ type: 'thinking', thinking: part.thinking, signature: part.signature ?? '' });
      } else if (part.type === 'redacted_thinking') {
        blocks.push({ type: 'redacted_thinking', data: part.data });
      } else if (part.text !== '') {
        blocks.push({ type: 'text', text: part.text });
      }
    }
  }
  if (message.refusal) blocks.push({ type: 'text', text: message.refusal });
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseToolInput(call.function.arguments),
    });
  }
  return blocks;
}

/** A canonical answer as the body of Anthropic's `POST /v1/messages` (https://docs.anthropic.com/en/api/messages). */
export function convertToAnthropicMessage(completion: ChatCompletion): AnthropicMessage {
  const [choice] = completion.choices;
  return {
    id: toAnthropicMessageId(completion.id),
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content: choice ? convertToAnthropicContent(choice.message) : [],
    stop_reason: mapToAnthropicStopReason(
      choice?.finish_reason ?? null,
      (choice?.message.tool_calls?.length ?? 0) > 0,
    ),
    stop_sequence: null,
    usage: convertToAnthropicUsage(completion.usage),
  };
}

export function encodeAnthropicMessage(completion: ChatCompletion): string {
  return JSON.stringify(convertToAnthropicMessage(completion));
}
