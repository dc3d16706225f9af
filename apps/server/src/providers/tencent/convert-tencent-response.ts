import type { AssistantMessage, ChatCompletion, ToolCall } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, UpstreamReportedError, type ChatAnswer } from '../../canonical/translation';
import { convertTencentUsage } from './convert-tencent-usage';
import { mapTencentFinishReason } from './map-tencent-finish-reason';
import { convertTencentError, findTencentError } from './read-tencent-error';
import {
  TENCENT,
  type HunyuanChatResponse,
  type HunyuanChoice,
  type HunyuanToolCall,
} from './tencent-wire-types';

/** Parses an answer; a Response.Error (which Tencent Cloud answers with HTTP 200) is thrown. */
export function parseTencentAnswer(text: string): HunyuanChatResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UpstreamFormatError(`${TENCENT} sent an answer that is not JSON (cut or malformed)`);
  }
  const error = findTencentError(parsed);
  if (error) throw new UpstreamReportedError(TENCENT, convertTencentError(error));
  const response = (parsed as { Response?: unknown } | null)?.Response;
  if (typeof response !== 'object' || response === null) {
    throw new UpstreamFormatError(`${TENCENT} answered without a Response`);
  }
  return response as HunyuanChatResponse;
}

export const toToolCall = (call: HunyuanToolCall): ToolCall => ({
  id: call.Id,
  type: 'function',
  function: { name: call.Function.Name, arguments: call.Function.Arguments || '{}' },
});

function convertMessage(choice: HunyuanChoice): AssistantMessage {
  const message = choice.Message ?? {};
  const calls = message.ToolCalls ?? [];
  return {
    role: 'assistant',
    content: message.Content || (calls.length > 0 ? null : ''),
    ...(message.ReasoningContent ? { reasoning_content: message.ReasoningContent } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map(toToolCall) } : {}),
  };
}

/** A 2xx ChatCompletions answer → the canonical completion and its usage. */
export function readTencentResponse(body: Buffer): ChatAnswer {
  const response = parseTencentAnswer(body.toString('utf8'));
  if (!Array.isArray(response.Choices) || response.Choices.length === 0) {
    throw new UpstreamFormatError(`${TENCENT} answered without Choices`);
  }
  const usage = convertTencentUsage(response.Usage);
  const completion: ChatCompletion = {
    id: response.Id ?? response.RequestId ?? '',
    object: 'chat.completion',
    created: response.Created ?? Math.floor(Date.now() / 1000),
    model: '',
    choices: response.Choices.map((choice, index) => ({
      index: choice.Index ?? index,
      message: convertMessage(choice),
      finish_reason: mapTencentFinishReason(choice.FinishReason) ?? 'stop',
    })),
    ...(usage ? { usage: convertToChatUsage(usage) } : {}),
  };
  return { completion, usage };
}
