import type { AssistantMessage, ChatMessage, TextPart, ToolMessage, UserMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import {
  COHERE,
  type CohereImageContent,
  type CohereMessage,
  type CohereTextContent,
  type CohereThinkingContent,
} from './cohere-wire-types';

const textOf = (content: string | TextPart[] | null | undefined): string =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text).join('');

function convertUserContent(message: UserMessage): CohereMessage {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  const content = message.content.map((part): CohereTextContent | CohereImageContent => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image_url':
        return { type: 'image_url', image_url: { ...part.image_url } };
      case 'input_audio':
        throw new UnsupportedOptionError(COHERE, 'audio input');
      case 'file':
        throw new UnsupportedOptionError(COHERE, 'file parts', 'send the text of the file instead');
    }
  });
  return { role: 'user', content };
}

/**
 * An assistant turn. With tool calls, its text is Cohere's tool_plan (the plan the model wrote before
 * calling, which Cohere wants back with the calls); thinking blocks go back as thinking content.
 */
function convertAssistant(message: AssistantMessage): CohereMessage {
  const parts = typeof message.content === 'string' ? [] : (message.content ?? []);
  const text =
    typeof message.content === 'string'
      ? message.content
      : parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const thinking: CohereThinkingContent[] = parts.flatMap((part) =>
    part.type === 'thinking' ? [{ type: 'thinking', thinking: part.thinking }] : [],
  );
  if (message.reasoning_content && thinking.length === 0) {
    thinking.push({ type: 'thinking', thinking: message.reasoning_content });
  }
  const toolCalls = message.tool_calls ?? [];
  if (toolCalls.length > 0) {
    return {
      role: 'assistant',
      ...(thinking.length > 0 ? { content: thinking } : {}),
      ...(text ? { tool_plan: text } : {}),
      tool_calls: toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: call.function.arguments || '{}' },
      })),
    };
  }
  if (thinking.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: [...thinking, { type: 'text', text }] };
}

function convertToolResult(message: ToolMessage): CohereMessage {
  if (typeof message.content === 'string') {
    return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
  }
  const content = message.content.map((part): CohereTextContent => {
    if (part.type !== 'text') throw new UnsupportedOptionError(COHERE, 'images in tool results');
    return { type: 'text', text: part.text };
  });
  return { role: 'tool', tool_call_id: message.tool_call_id, content };
}

/** Canonical messages → Cohere's v2 messages, one for one (system and developer both as system). */
export function convertToCohereMessages(messages: readonly ChatMessage[]): CohereMessage[] {
  return messages.map((message): CohereMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: textOf(message.content) };
      case 'user':
        return convertUserContent(message);
      case 'assistant':
        return convertAssistant(message);
      case 'tool':
        return convertToolResult(message);
    }
  });
}
