import type { AssistantMessage, ChatCompletion } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import type { CohereChatResponse } from './cohere-wire-types';
import { convertCohereUsage } from './convert-cohere-usage';
import { mapCohereFinishReason } from './map-cohere-finish-reason';

function parseResponse(body: Buffer): CohereChatResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError('Cohere answered a chat with something that is not JSON');
  }
  const message = (parsed as { message?: unknown } | null)?.message;
  if (typeof message !== 'object' || message === null) {
    throw new UpstreamFormatError('Cohere answered a chat without a message');
  }
  return parsed as CohereChatResponse;
}

/**
 * The message of a Cohere answer: text items joined, thinking as reasoning_content; with tool calls, the
 * tool_plan is the message's text (what the model said before calling, as OpenAI models put it).
 */
export function convertCohereMessage(message: CohereChatResponse['message']): AssistantMessage {
  const items = message.content ?? [];
  const text = items.map((item) => (item.type === 'text' ? item.text : '')).join('');
  const thinking = items.map((item) => (item.type === 'thinking' ? item.thinking : '')).join('');
  const toolCalls = message.tool_calls ?? [];
  const content = text || (toolCalls.length > 0 ? (message.tool_plan ?? '') : '');
  return {
    role: 'assistant',
    content: content || (toolCalls.length > 0 ? null : ''),
    ...(thinking ? { reasoning_content: thinking } : {}),
    ...(toolCalls.length > 0
      ? {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.function.name, arguments: call.function.arguments || '{}' },
          })),
        }
      : {}),
  };
}

/** A 2xx answer of POST /v2/chat → the canonical completion and its billed usage. */
export function readCohereResponse(body: Buffer): ChatAnswer {
  const response = parseResponse(body);
  const usage = convertCohereUsage(response.usage);
  const completion: ChatCompletion = {
    id: response.id ?? '',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: '',
    choices: [
      {
        index: 0,
        message: convertCohereMessage(response.message),
        finish_reason: mapCohereFinishReason(response.finish_reason),
      },
    ],
    ...(usage ? { usage: convertToChatUsage(usage) } : {}),
  };
  return { completion, usage };
}
