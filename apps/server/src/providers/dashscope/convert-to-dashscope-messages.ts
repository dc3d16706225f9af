import type { AssistantMessage, ChatMessage, ToolMessage, UserMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { DASHSCOPE, type DashScopeContentPart, type DashScopeMessage } from './dashscope-wire-types';

const textOf = (content: string | Array<{ type: string; text?: string }> | null | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');

/** A user message for the text endpoint (text only) or the multimodal one (`[{image}, {text}]`). */
function convertUser(message: UserMessage, model: string, isVision: boolean): DashScopeMessage {
  if (typeof message.content === 'string') {
    return { role: 'user', content: isVision ? [{ text: message.content }] : message.content };
  }
  const parts = message.content.map((part): DashScopeContentPart => {
    if (part.type === 'text') return { text: part.text };
    if (part.type === 'image_url') {
      if (!isVision) {
        throw new UnsupportedOptionError(
          DASHSCOPE,
          'image input',
          `${model} reads text only; a -vl model reads images`,
        );
      }
      return { image: part.image_url.url };
    }
    throw new UnsupportedOptionError(
      DASHSCOPE,
      part.type === 'input_audio' ? 'audio input' : 'file input',
      model,
    );
  });
  if (isVision) return { role: 'user', content: parts };
  return { role: 'user', content: parts.map((part) => ('text' in part ? part.text : '')).join('\n') };
}

function convertAssistant(message: AssistantMessage, isVision: boolean): DashScopeMessage {
  const text = textOf(message.content);
  const calls = message.tool_calls ?? [];
  return {
    role: 'assistant',
    content: isVision ? [{ text }] : text,
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        }
      : {}),
  };
}

function convertTool(message: ToolMessage, isVision: boolean): DashScopeMessage {
  if (typeof message.content !== 'string' && message.content.some((part) => part.type !== 'text')) {
    throw new UnsupportedOptionError(DASHSCOPE, 'images in tool results');
  }
  const text = textOf(message.content);
  return { role: 'tool', content: isVision ? [{ text }] : text, tool_call_id: message.tool_call_id };
}

/**
 * Canonical messages → DashScope's: OpenAI's roles and tool calls as they are; the multimodal endpoint wants
 * every content as parts (`[{text}]`, `[{image}, {text}]`). Thinking of earlier turns is not sent back.
 */
export function convertToDashScopeMessages(
  messages: readonly ChatMessage[],
  model: string,
  isVision: boolean,
): DashScopeMessage[] {
  return messages.map((message): DashScopeMessage => {
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content);
        return { role: 'system', content: isVision ? [{ text }] : text };
      }
      case 'user':
        return convertUser(message, model, isVision);
      case 'assistant':
        return convertAssistant(message, isVision);
      case 'tool':
        return convertTool(message, isVision);
    }
  });
}
