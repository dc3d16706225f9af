import type { AssistantMessage, ChatCompletion, ToolCall } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, UpstreamReportedError, type ChatAnswer } from '../../canonical/translation';
import { convertDashScopeUsage } from './convert-dashscope-usage';
import {
  DASHSCOPE,
  type DashScopeChoice,
  type DashScopeResponse,
  type DashScopeToolCall,
} from './dashscope-wire-types';
import { mapDashScopeFinishReason } from './map-dashscope-finish-reason';
import { readDashScopeErrorObject } from './read-dashscope-error';

/** A parsed answer or event; an error object in a 2xx body is thrown with its kind. */
export function parseDashScopeObject(text: string, what: string): DashScopeResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UpstreamFormatError(`${DASHSCOPE} sent ${what} that is not JSON (cut or malformed)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UpstreamFormatError(`${DASHSCOPE} sent ${what} that is not a JSON object`);
  }
  if (!('output' in parsed)) {
    const error = readDashScopeErrorObject(parsed, 200);
    if (error) throw new UpstreamReportedError(DASHSCOPE, error);
  }
  return parsed as DashScopeResponse;
}

/** The multimodal endpoint answers content as parts (`[{text}]`); the text endpoint as text. */
export function dashScopeText(content: string | Array<{ text?: string }> | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

const toToolCall = (call: DashScopeToolCall): ToolCall => ({
  id: call.id ?? '',
  type: 'function',
  function: { name: call.function.name ?? '', arguments: call.function.arguments || '{}' },
});

function convertMessage(choice: DashScopeChoice): AssistantMessage {
  const message = choice.message ?? {};
  const calls = message.tool_calls ?? [];
  const text = dashScopeText(message.content);
  return {
    role: 'assistant',
    content: text || (calls.length > 0 ? null : ''),
    ...(message.reasoning_content ? { reasoning_content: message.reasoning_content } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map(toToolCall) } : {}),
  };
}

/** A 2xx generation answer (result_format message) → the canonical completion and its usage. */
export function readDashScopeResponse(body: Buffer): ChatAnswer {
  const answer = parseDashScopeObject(body.toString('utf8'), 'an answer');
  const choices = answer.output?.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    throw new UpstreamFormatError(`${DASHSCOPE} answered without output.choices`);
  }
  const usage = convertDashScopeUsage(answer.usage);
  const completion: ChatCompletion = {
    id: answer.request_id ?? '',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: '',
    choices: choices.map((choice, index) => ({
      index,
      message: convertMessage(choice),
      finish_reason: mapDashScopeFinishReason(choice.finish_reason) ?? 'stop',
    })),
    ...(usage ? { usage: convertToChatUsage(usage) } : {}),
  };
  return { completion, usage };
}
