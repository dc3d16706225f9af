import type { AssistantMessage, ChatMessage, ToolMessage, UserMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertAlternatingTurns } from '../shared/convert-alternating-turns';
import { TENCENT, type HunyuanContent, type HunyuanMessage } from './tencent-wire-types';

/** Only Hunyuan's vision models (hunyuan-vision, hunyuan-turbos-vision …) read images. */
export const isHunyuanVisionModel = (model: string) => model.toLowerCase().includes('vision');

function convertUser(message: UserMessage, model: string): HunyuanMessage {
  if (typeof message.content === 'string') return { Role: 'user', Content: message.content };
  const contents = message.content.map((part): HunyuanContent => {
    if (part.type === 'text') return { Type: 'text', Text: part.text };
    if (part.type === 'image_url') {
      if (!isHunyuanVisionModel(model)) {
        throw new UnsupportedOptionError(
          TENCENT,
          'image input',
          `${model} reads text only; hunyuan-vision reads images`,
        );
      }
      return { Type: 'image_url', ImageUrl: { Url: part.image_url.url } };
    }
    throw new UnsupportedOptionError(TENCENT, part.type === 'input_audio' ? 'audio input' : 'file input');
  });
  return contents.every((part) => part.Type === 'text')
    ? { Role: 'user', Content: contents.map((part) => part.Text).join('\n') }
    : { Role: 'user', Contents: contents };
}

const textOf = (content: string | Array<{ type: string; text?: string }> | null | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');

function convertAssistant(message: AssistantMessage): HunyuanMessage {
  const calls = message.tool_calls ?? [];
  return {
    Role: 'assistant',
    Content: textOf(message.content),
    ...(calls.length > 0
      ? {
          ToolCalls: calls.map((call) => ({
            Id: call.id,
            Type: 'function' as const,
            Function: { Name: call.function.name, Arguments: call.function.arguments },
          })),
        }
      : {}),
  };
}

function convertTool(message: ToolMessage): HunyuanMessage {
  if (typeof message.content !== 'string' && message.content.some((part) => part.type !== 'text')) {
    throw new UnsupportedOptionError(TENCENT, 'images in tool results');
  }
  return { Role: 'tool', Content: textOf(message.content), ToolCallId: message.tool_call_id };
}

/** Two text turns of one side in a row become one: Hunyuan wants user and assistant turns to alternate. */
function appendMerged(messages: HunyuanMessage[], next: HunyuanMessage): void {
  const last = messages.at(-1);
  const isText = (message: HunyuanMessage) =>
    message.Content !== undefined && !message.ToolCalls && !message.Contents;
  if (last && last.Role === next.Role && next.Role !== 'tool' && isText(last) && isText(next)) {
    last.Content = [last.Content, next.Content].filter(Boolean).join('\n\n');
    return;
  }
  messages.push(next);
}

/**
 * Canonical messages → Hunyuan's Messages: system and developer messages joined into one system message at
 * the start (Hunyuan takes it there only), images as Contents for vision models, tool calls and results as
 * ToolCalls and tool messages (https://cloud.tencent.com/document/api/1729/105701, Messages).
 */
export function convertToTencentMessages(input: readonly ChatMessage[], model: string): HunyuanMessage[] {
  const { system, messages } = convertAlternatingTurns<HunyuanMessage>(input, {
    systemText: (message) => textOf(message.content),
    user: (message) => convertUser(message, model),
    assistant: convertAssistant,
    tool: convertTool,
    appendMerged,
  });
  return system ? [{ Role: 'system', Content: system }, ...messages] : messages;
}
