import type { AssistantMessage, ChatMessage, TextPart, ToolMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import type {
  BedrockContentBlock,
  BedrockMessage,
  BedrockSystemBlock,
  BedrockToolResultContent,
} from './bedrock-converse-types';
import { BEDROCK } from './bedrock-converse-types';
import {
  convertToBedrockImage,
  convertToBedrockUserBlocks,
  toCachePoint,
} from './convert-to-bedrock-content';
import { fitToolCallId, type ToolCallIdRule } from '../shared/fit-tool-call-id';

/** Converse's toolUseId: 1 to 64 of letters, digits, _ and - (ToolUseBlock in the Bedrock API reference). */
const BEDROCK_TOOL_USE_IDS: ToolCallIdRule = { maxLength: 64, pattern: /^[A-Za-z0-9_-]+$/ };

function convertSystemBlocks(content: string | TextPart[]): BedrockSystemBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap((part) =>
    part.text === '' ? [] : [{ text: part.text }, ...toCachePoint(part.cache_control)],
  );
}

/** OpenAI sends arguments as JSON text; Converse wants the value. */
function parseToolArguments(id: string, text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new UnsupportedOptionError(BEDROCK, 'tool call arguments that are not JSON', `tool call ${id}`);
  }
}

/**
 * Thinking goes back with its signature (Claude checks it); thinking without one (reasoning_content of an
 * OpenAI-compatible vendor) cannot be verified by Claude, so it is left out, as Anthropic allows for earlier turns.
 */
function convertAssistantBlocks(message: AssistantMessage): BedrockContentBlock[] {
  const blocks: BedrockContentBlock[] = [];
  if (typeof message.content === 'string' && message.content !== '') blocks.push({ text: message.content });
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part.type === 'thinking' && part.signature) {
        blocks.push({
          reasoningContent: { reasoningText: { text: part.thinking, signature: part.signature } },
        });
      } else if (part.type === 'redacted_thinking') {
        blocks.push({ reasoningContent: { redactedContent: part.data } });
      } else if (part.type === 'text' && part.text !== '') {
        blocks.push({ text: part.text }, ...toCachePoint(part.cache_control));
      }
    }
  }
  for (const call of message.tool_calls ?? []) {
    const input = parseToolArguments(call.id, call.function.arguments);
    blocks.push({
      toolUse: { toolUseId: fitToolCallId(call.id, BEDROCK_TOOL_USE_IDS), name: call.function.name, input },
    });
  }
  return blocks;
}

function convertToolResult(message: ToolMessage): BedrockContentBlock[] {
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const content = parts.flatMap((part): BedrockToolResultContent[] => {
    if (part.type === 'image_url') return [{ image: convertToBedrockImage(part) }];
    return part.text === '' ? [] : [{ text: part.text }];
  });
  const mark = parts.find((part) => part.cache_control)?.cache_control;
  // status is sent only for failures: success is the default, and some models on Bedrock refuse the field
  // (ToolResultBlock in the API reference names Claude and Nova as the models that read it).
  const status = message.is_error ? { status: 'error' as const } : {};
  const toolUseId = fitToolCallId(message.tool_call_id, BEDROCK_TOOL_USE_IDS);
  return [{ toolResult: { toolUseId, content, ...status } }, ...toCachePoint(mark)];
}

/**
 * Canonical messages → Converse's system blocks and messages. System and developer messages, wherever they
 * are, become the system prompt; tool results travel in user messages; consecutive messages of one role are
 * merged (Converse wants user and assistant turns to alternate, so several tool results share one user turn);
 * messages left without content are dropped (Converse refuses empty and blank blocks).
 */
export function convertToBedrockMessages(messages: ChatMessage[]): {
  system: BedrockSystemBlock[];
  messages: BedrockMessage[];
} {
  const system: BedrockSystemBlock[] = [];
  const converted: BedrockMessage[] = [];
  const documentNames = new Set<string>();
  const append = (role: BedrockMessage['role'], content: BedrockContentBlock[]) => {
    if (content.length === 0) return;
    const last = converted.at(-1);
    if (last?.role === role) last.content.push(...content);
    else converted.push({ role, content });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...convertSystemBlocks(message.content));
        break;
      case 'user':
        append(
          'user',
          typeof message.content === 'string'
            ? convertToBedrockUserBlocks({ type: 'text', text: message.content }, documentNames)
            : message.content.flatMap((part) => convertToBedrockUserBlocks(part, documentNames)),
        );
        break;
      case 'assistant':
        append('assistant', convertAssistantBlocks(message));
        break;
      case 'tool':
        append('user', convertToolResult(message));
        break;
    }
  }
  return { system, messages: converted };
}
