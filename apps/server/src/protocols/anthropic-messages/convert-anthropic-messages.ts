import type {
  AssistantContentPart,
  AssistantMessage,
  ChatMessage,
  ImagePart,
  TextPart,
  ToolCall,
  ToolMessage,
  UserContentPart,
} from '../../canonical/chat';
import {
  invalidField,
  isJsonObject,
  requireArray,
  requireObject,
  requireString,
  type Json,
} from './anthropic-request-fields';
import {
  convertAnthropicDocument,
  convertAnthropicImage,
  convertAnthropicText,
  convertNestedBlocks,
} from './convert-anthropic-blocks';

/**
 * Anthropic's `system` and turns (https://docs.anthropic.com/en/api/messages) as canonical messages, checked
 * on the way. Blocks of Anthropic-run tools (server_tool_use, web_search_tool_result …) and block types newer
 * than this gateway have no canonical form: they are accepted and left out here, and reach an Anthropic
 * channel with the client's body on the pass-through lane.
 */

/**
 * System text, as a string or text blocks: one canonical system message, null when no text is left. A block
 * of another type goes to `other` (the top-level `system` refuses it; a system turn keeps it for the
 * pass-through lane).
 */
function convertSystemContent(
  content: unknown,
  path: string,
  other: (block: Json, at: string) => void,
): ChatMessage | null {
  if (typeof content === 'string') return content === '' ? null : { role: 'system', content };
  const blocks = requireArray(content, path);
  const parts: TextPart[] = [];
  for (let index = 0; index < blocks.length; index += 1) {
    const at = `${path}.${index}`;
    const block = requireObject(blocks[index], at);
    if (block.type === 'text') parts.push(convertAnthropicText(block, at));
    else other(block, at);
  }
  return parts.length > 0 ? { role: 'system', content: parts } : null;
}

export function convertAnthropicSystem(system: unknown): ChatMessage[] {
  if (system === undefined || system === null) return [];
  const message = convertSystemContent(system, 'system', (_block, at) => {
    throw invalidField(`${at}.type`, "Input should be 'text'");
  });
  return message ? [message] : [];
}

function convertToolResult(block: Json, path: string): ToolMessage {
  const toolCallId = requireString(block.tool_use_id, `${path}.tool_use_id`);
  const { content } = block;
  let converted: ToolMessage['content'];
  if (content === undefined || content === null) converted = '';
  else if (typeof content === 'string') converted = content;
  else {
    // A file-sourced image has no place in a canonical tool result: only Anthropic could read its id.
    converted = convertNestedBlocks(content, `${path}.content`).filter(
      (part): part is TextPart | ImagePart => part.type !== 'file',
    );
  }
  if (block.is_error !== undefined && typeof block.is_error !== 'boolean') {
    throw invalidField(`${path}.is_error`, 'Input should be a valid boolean');
  }
  return {
    role: 'tool',
    tool_call_id: toolCallId,
    content: converted,
    ...(block.is_error === true ? { is_error: true } : {}),
  };
}

/**
 * A user turn: tool results become tool messages and the other blocks a user message, in the order they
 * came (Anthropic puts tool results first).
 */
function convertUserTurn(content: unknown[], path: string, into: ChatMessage[]): void {
  let parts: UserContentPart[] = [];
  const flush = () => {
    if (parts.length > 0) into.push({ role: 'user', content: parts });
    parts = [];
  };
  for (let index = 0; index < content.length; index += 1) {
    const at = `${path}.${index}`;
    const block = requireObject(content[index], at);
    switch (block.type) {
      case 'text':
        parts.push(convertAnthropicText(block, at));
        break;
      case 'image':
        parts.push(convertAnthropicImage(block, at));
        break;
      case 'document':
        parts.push(...convertAnthropicDocument(block, at));
        break;
      case 'tool_result':
        flush();
        into.push(convertToolResult(block, at));
        break;
      default:
        requireString(block.type, `${at}.type`);
    }
  }
  flush();
}

function convertToolUse(block: Json, path: string): ToolCall {
  const id = requireString(block.id, `${path}.id`);
  const name = requireString(block.name, `${path}.name`);
  if (block.input !== undefined && !isJsonObject(block.input)) {
    throw invalidField(`${path}.input`, 'Input should be a valid dictionary');
  }
  return { id, type: 'function', function: { name, arguments: JSON.stringify(block.input ?? {}) } };
}

/**
 * An assistant turn: thinking (with its signature, which must go back unchanged), text and tool uses. One
 * plain text block stays a string, as most canonical answers are. A turn of server tool blocks alone has
 * nothing canonical: null.
 */
function convertAssistantTurn(content: unknown[], path: string): AssistantMessage | null {
  const parts: AssistantContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (let index = 0; index < content.length; index += 1) {
    const at = `${path}.${index}`;
    const block = requireObject(content[index], at);
    switch (block.type) {
      case 'text':
        parts.push(convertAnthropicText(block, at));
        break;
      case 'thinking': {
        const thinking = requireString(block.thinking, `${at}.thinking`);
        const signature = typeof block.signature === 'string' ? { signature: block.signature } : {};
        parts.push({ type: 'thinking', thinking, ...signature });
        break;
      }
      case 'redacted_thinking':
        parts.push({ type: 'redacted_thinking', data: requireString(block.data, `${at}.data`) });
        break;
      case 'tool_use':
        toolCalls.push(convertToolUse(block, at));
        break;
      default:
        requireString(block.type, `${at}.type`);
    }
  }
  if (parts.length === 0 && toolCalls.length === 0) return null;
  const [first] = parts;
  const isPlainText = parts.length === 1 && first.type === 'text' && !first.cache_control;
  const message: AssistantMessage = {
    role: 'assistant',
    content: isPlainText ? first.text : parts.length > 0 ? parts : null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

/**
 * A system message inside the conversation (Anthropic's mid-conversation system messages, which Claude Code
 * sends for models it does not know): its text, in place. Its other blocks (tool_addition, tool_removal …)
 * have no canonical form and reach an Anthropic channel with the client's body; translators move system
 * text where their vendor keeps it.
 */
function convertSystemTurn(content: unknown, path: string): ChatMessage | null {
  return convertSystemContent(content, path, (block, at) => requireString(block.type, `${at}.type`));
}

export function convertAnthropicMessages(messages: unknown): ChatMessage[] {
  const turns = requireArray(messages, 'messages');
  if (turns.length === 0) throw invalidField('messages', 'at least one message is required');
  const converted: ChatMessage[] = [];
  for (let index = 0; index < turns.length; index += 1) {
    const path = `messages.${index}`;
    const turn = requireObject(turns[index], path);
    const { role, content } = turn;
    if (role === 'system') {
      const system = convertSystemTurn(content, `${path}.content`);
      if (system) converted.push(system);
      continue;
    }
    if (role !== 'user' && role !== 'assistant') {
      throw turn.role === undefined
        ? invalidField(`${path}.role`, 'Field required')
        : invalidField(`${path}.role`, "Input should be 'user', 'assistant' or 'system'");
    }
    if (typeof content === 'string') {
      converted.push({ role, content });
      continue;
    }
    const blocks = requireArray(content, `${path}.content`);
    if (role === 'user') {
      convertUserTurn(blocks, `${path}.content`, converted);
      continue;
    }
    const assistant = convertAssistantTurn(blocks, `${path}.content`);
    if (assistant) converted.push(assistant);
  }
  return converted;
}
