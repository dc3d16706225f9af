import type { AssistantMessage, ChatMessage, ToolMessage, UserMessage } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertAlternatingTurns } from '../shared/convert-alternating-turns';
import { BAIDU, type BaiduMessage } from './baidu-wire-types';

const partNames: Record<string, string> = {
  image_url: 'image input',
  input_audio: 'audio input',
  file: 'file input',
};

/** ERNIE chat models read text only. */
function textOf(content: UserMessage['content'] | ToolMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type !== 'text') throw new UnsupportedOptionError(BAIDU, partNames[part.type] ?? part.type);
      return part.text;
    })
    .join('\n');
}

/** The answer's text; thinking parts are the model's own and not sent back. */
function assistantText(message: AssistantMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function convertAssistant(message: AssistantMessage): BaiduMessage {
  const calls = message.tool_calls ?? [];
  if (calls.length > 1) {
    throw new UnsupportedOptionError(
      BAIDU,
      'several tool calls in one assistant turn',
      'ERNIE calls one at a time',
    );
  }
  const [call] = calls;
  return {
    role: 'assistant',
    content: assistantText(message),
    ...(call ? { function_call: { name: call.function.name, arguments: call.function.arguments } } : {}),
  };
}

/** Consecutive turns of one side become one, as ERNIE wants user and assistant turns to alternate. */
function appendMerged(messages: BaiduMessage[], next: BaiduMessage): void {
  const last = messages.at(-1);
  const canMerge =
    last !== undefined &&
    last.role === next.role &&
    next.role !== 'function' &&
    !(last.function_call && next.function_call);
  if (!canMerge) {
    messages.push(next);
    return;
  }
  last.content = [last.content, next.content].filter((text) => text !== '').join('\n\n');
  if (next.function_call) last.function_call = next.function_call;
}

/**
 * ERNIE wants an odd number of turns: user (or a function result) at odd positions, assistant at even ones,
 * starting and ending with the user's side (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/jlil56u11, messages).
 */
function checkAlternation(messages: BaiduMessage[]): void {
  messages.forEach((message, index) => {
    const isUserSide = message.role !== 'assistant';
    if (isUserSide !== (index % 2 === 0) || (index === 0 && message.role === 'function')) {
      throw new UnsupportedOptionError(
        BAIDU,
        'messages that do not alternate between user and assistant turns',
        `message ${index + 1} is ${message.role === 'function' ? 'a tool result' : `an ${message.role} turn`} where ERNIE expects ${isUserSide ? 'an assistant turn' : 'a user turn'}`,
      );
    }
  });
  if (messages.length === 0) throw new UnsupportedOptionError(BAIDU, 'a conversation without a user message');
  if (messages.length % 2 === 0) {
    throw new UnsupportedOptionError(BAIDU, 'a conversation that ends with an assistant turn');
  }
}

/**
 * Canonical messages → ERNIE's `system` text and alternating messages. System and developer messages become
 * the system text; a tool result becomes a `function` turn named after the call it answers.
 */
export function convertToBaiduMessages(input: readonly ChatMessage[]): {
  system: string;
  messages: BaiduMessage[];
} {
  const callNames = new Map<string, string>();
  const converted = convertAlternatingTurns<BaiduMessage>(input, {
    systemText: (message) => textOf(message.content),
    user: (message) => ({ role: 'user', content: textOf(message.content) }),
    assistant(message) {
      for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name);
      return convertAssistant(message);
    },
    tool: (message) => ({
      role: 'function',
      name: callNames.get(message.tool_call_id) ?? message.tool_call_id,
      content: textOf(message.content),
    }),
    appendMerged,
  });
  checkAlternation(converted.messages);
  return converted;
}
