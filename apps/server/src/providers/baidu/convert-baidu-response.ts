import type { AssistantMessage, ChatCompletion, ToolCall } from '../../canonical/chat';
import { convertToChatUsage } from '../../canonical/convert-token-usage';
import { UpstreamFormatError, UpstreamReportedError, type ChatAnswer } from '../../canonical/translation';
import { readOpenAIChatAnswer } from '../openai-compatible/convert-openai-response';
import { BAIDU, type BaiduChatResponse, type BaiduFunctionCall } from './baidu-wire-types';
import { convertBaiduUsage } from './convert-baidu-usage';
import { mapBaiduFinishReason } from './map-baidu-finish-reason';
import { readBaiduErrorObject } from './read-baidu-error';

/** A parsed answer or stream event; an error object (which Baidu sends with HTTP 200) is thrown. */
export function parseBaiduObject(text: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UpstreamFormatError(`${BAIDU} sent ${what} that is not JSON (cut or malformed)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UpstreamFormatError(`${BAIDU} sent ${what} that is not a JSON object`);
  }
  const error = readBaiduErrorObject(parsed);
  if (error) throw new UpstreamReportedError(BAIDU, error);
  return parsed as Record<string, unknown>;
}

/** ERNIE names no call id: one is made from the answer's id, stable for the same answer. */
export function toBaiduToolCall(call: BaiduFunctionCall, answerId: string): ToolCall {
  return {
    id: `call_${answerId || 'ernie'}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments || '{}' },
  };
}

/** The reasoning ERNIE wrote before a call (function_call.thoughts) is the turn's text, as OpenAI models put it. */
function convertMessage(answer: BaiduChatResponse): AssistantMessage {
  const call = answer.function_call;
  const text = answer.result || (call?.thoughts ?? '');
  if (!call) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text || null, tool_calls: [toBaiduToolCall(call, answer.id ?? '')] };
}

/**
 * A 2xx answer of ERNIE's chat endpoint → the canonical completion and its usage. An OpenAI-shaped answer
 * (`choices`) is Qianfan's v2 API, which a channel with one API key speaks; it is read as OpenAI's.
 */
export function readBaiduResponse(body: Buffer): ChatAnswer {
  const parsed = parseBaiduObject(body.toString('utf8'), 'an answer');
  if (Array.isArray(parsed.choices)) return readOpenAIChatAnswer(body);
  const answer = parsed as BaiduChatResponse;
  if (typeof answer.result !== 'string' && !answer.function_call) {
    throw new UpstreamFormatError(`${BAIDU} answered without a result`);
  }
  const usage = convertBaiduUsage(answer.usage);
  const completion: ChatCompletion = {
    id: answer.id ?? '',
    object: 'chat.completion',
    created: answer.created ?? Math.floor(Date.now() / 1000),
    model: '',
    choices: [
      {
        index: 0,
        message: convertMessage(answer),
        finish_reason: mapBaiduFinishReason(answer.finish_reason, answer.function_call !== undefined),
      },
    ],
    ...(usage ? { usage: convertToChatUsage(usage) } : {}),
  };
  return { completion, usage };
}
