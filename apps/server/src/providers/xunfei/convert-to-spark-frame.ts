import type { ChatMessage, ChatRequest, FunctionTool } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { SPARK, type SparkFunction, type SparkRequestFrame, type SparkTextMessage } from './spark-wire-types';

/** Spark's uid is at most 32 characters; a request without `user` is sent as this one. */
export const DEFAULT_SPARK_UID = 'gatehouse';

const HTTP_API_HINT = 'use an APIPassword key (the HTTP API), which iFlytek documents for function calling';

function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'thinking' || part.type === 'redacted_thinking') return '';
      const kind = part.type === 'image_url' ? 'image' : part.type === 'input_audio' ? 'audio' : 'file';
      throw new UnsupportedOptionError(SPARK, `${kind} input`, 'Spark chat takes text only');
    })
    .join('');
}

function convertMessage(message: ChatMessage): SparkTextMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(message) };
    case 'user':
      return { role: 'user', content: textOf(message) };
    case 'assistant':
      if (message.tool_calls?.length) {
        throw new UnsupportedOptionError(
          SPARK,
          'tool calls in the history over the WebSocket API',
          HTTP_API_HINT,
        );
      }
      return { role: 'assistant', content: textOf(message) };
    case 'tool':
      throw new UnsupportedOptionError(SPARK, 'tool results over the WebSocket API', HTTP_API_HINT);
  }
}

function convertFunctions(request: ChatRequest): SparkFunction[] {
  if (request.tool_choice === 'none') return [];
  return (request.tools ?? [])
    .filter((tool): tool is FunctionTool => tool.type === 'function' && 'function' in tool)
    .map(({ function: { name, description, parameters } }) => ({
      name,
      ...(description !== undefined ? { description } : {}),
      ...(parameters !== undefined ? { parameters } : {}),
    }));
}

/**
 * A canonical request → Spark's request frame for `domain`. Sampling: temperature, max_tokens and top_k
 * (Spark has no top_p, penalties or stop sequences: they are not sent). Function tools go in
 * payload.functions and the model may answer a function_call; sending a tool's result back is refused on the
 * WebSocket API, whose current reference sends function calling to the HTTP API.
 */
export function convertToSparkFrame(request: ChatRequest, domain: string, appId: string): SparkRequestFrame {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(SPARK, 'n > 1');
  if (request.logprobs) throw new UnsupportedOptionError(SPARK, 'logprobs');
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const functions = convertFunctions(request);
  const uid =
    typeof request.user === 'string' && request.user ? request.user.slice(0, 32) : DEFAULT_SPARK_UID;
  return {
    header: { app_id: appId, uid },
    parameter: {
      chat: {
        domain,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
        ...(request.top_k !== undefined ? { top_k: request.top_k } : {}),
      },
    },
    payload: {
      message: { text: request.messages.map(convertMessage) },
      ...(functions.length > 0 ? { functions: { text: functions } } : {}),
    },
  };
}
