import type { AssistantMessage, ChatMessage, ToolCall, ToolMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { fitToolCallId, type ToolCallIdRule } from '../shared/fit-tool-call-id';
import type {
  AnthropicContentBlockParam,
  AnthropicMessageParam,
  AnthropicTextBlockParam,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam,
} from './anthropic-wire-types';
import {
  convertToAnthropicImage,
  convertToAnthropicText,
  convertToAnthropicUserContent,
} from './convert-to-anthropic-content';

export interface AnthropicConversation {
  system: AnthropicTextBlockParam[];
  messages: AnthropicMessageParam[];
}

/**
 * Anthropic's tool_use ids are letters, digits, _ and -; ids made by other vendors may not be. Its API states
 * no length; Claude on Bedrock takes 64 characters, so that is the bound here too.
 */
const ANTHROPIC_TOOL_USE_IDS: ToolCallIdRule = { maxLength: 64, pattern: /^[a-zA-Z0-9_-]+$/ };

function readToolInput(call: ToolCall): Record<string, unknown> {
  const text = call.function.arguments.trim();
  if (text === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new UnsupportedOptionError(
      'Anthropic',
      'tool call arguments that are not a JSON object',
      `the arguments of tool call ${call.id} (${call.function.name})`,
    );
  }
  return input as Record<string, unknown>;
}

/**
 * Thinking blocks first, in their order, then text, then tool calls, as Claude produced them
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 * Thinking without a signature (another vendor's reasoning, or reasoning_content) cannot be verified by
 * Anthropic and is left out.
 */
function convertAssistant(message: AssistantMessage): AnthropicContentBlockParam[] {
  const thinking: AnthropicContentBlockParam[] = [];
  const text: AnthropicContentBlockParam[] = [];
  const content = message.content ?? [];
  for (const part of typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content) {
    if (part.type === 'thinking' && part.signature) {
      thinking.push({ type: 'thinking', thinking: part.thinking, signature: part.signature });
    } else if (part.type === 'redacted_thinking') {
      thinking.push({ type: 'redacted_thinking', data: part.data });
    } else if (part.type === 'text' && part.text !== '') {
      text.push(convertToAnthropicText(part));
    }
  }
  const toolUses = (message.tool_calls ?? []).map((call): AnthropicToolUseBlockParam => ({
    type: 'tool_use',
    id: fitToolCallId(call.id, ANTHROPIC_TOOL_USE_IDS),
    name: call.function.name,
    input: readToolInput(call),
  }));
  return [...thinking, ...text, ...toolUses];
}

function convertToolResult(message: ToolMessage): AnthropicToolResultBlockParam {
  const content =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) =>
          part.type === 'text' ? convertToAnthropicText(part) : convertToAnthropicImage(part),
        );
  return {
    type: 'tool_result',
    tool_use_id: fitToolCallId(message.tool_call_id, ANTHROPIC_TOOL_USE_IDS),
    content,
    ...(message.is_error ? { is_error: true } : {}),
  };
}

/** In a user turn, tool results come before anything else (Anthropic refuses text before them). */
function toolResultsFirst(blocks: AnthropicContentBlockParam[]): AnthropicContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === blocks.length) return blocks;
  return [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}

/**
 * Canonical messages as Anthropic's `system` and alternating turns. System and developer messages, wherever
 * they are, join the system prompt in order. Tool results become tool_result blocks of a user turn, and
 * consecutive messages of one role merge into one turn, so the results of parallel tool calls travel together.
 * An assistant message with nothing Anthropic can take (e.g. only unsigned reasoning) is left out.
 */
export function convertToAnthropicMessages(messages: ChatMessage[]): AnthropicConversation {
  const system: AnthropicTextBlockParam[] = [];
  const turns: Array<{ role: 'user' | 'assistant'; content: AnthropicContentBlockParam[] }> = [];
  const append = (role: 'user' | 'assistant', blocks: AnthropicContentBlockParam[]) => {
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        if (typeof message.content === 'string') {
          if (message.content !== '') system.push({ type: 'text', text: message.content });
        } else {
          system.push(...message.content.filter((part) => part.text !== '').map(convertToAnthropicText));
        }
        break;
      case 'user':
        append('user', convertToAnthropicUserContent(message.content));
        break;
      case 'tool':
        append('user', [convertToolResult(message)]);
        break;
      case 'assistant': {
        const blocks = convertAssistant(message);
        if (blocks.length > 0) append('assistant', blocks);
        break;
      }
    }
  }
  return {
    system,
    messages: turns.map((turn) => ({
      role: turn.role,
      content: turn.role === 'user' ? toolResultsFirst(turn.content) : turn.content,
    })),
  };
}
