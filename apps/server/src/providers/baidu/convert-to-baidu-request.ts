import type { ChatRequest, ChatTool, FunctionTool } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { BAIDU, type BaiduChatRequest, type BaiduFunction } from './baidu-wire-types';
import { convertToBaiduMessages } from './convert-to-baidu-messages';

/** ERNIE takes temperatures in (0, 1]: OpenAI's 0 (greedy) is its smallest, anything above 1 its largest. */
const MIN_TEMPERATURE = 0.01;

function refuseUnsupported(request: ChatRequest): void {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(BAIDU, 'n > 1');
  if (request.logprobs) throw new UnsupportedOptionError(BAIDU, 'logprobs');
  if (request.response_format?.type === 'json_schema') {
    throw new UnsupportedOptionError(BAIDU, 'response_format json_schema', 'use json_object');
  }
}

const isFunctionTool = (tool: ChatTool): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

/**
 * OpenAI's tools as ERNIE's `functions`; tool_choice none sends none, a named function (or `required` with
 * one function) becomes ERNIE's tool_choice. Vendor tools of other protocols are dropped.
 */
function convertTools(request: ChatRequest): Pick<BaiduChatRequest, 'functions' | 'tool_choice'> {
  const tools = (request.tools ?? []).filter(isFunctionTool);
  const choice = request.tool_choice;
  if (tools.length === 0 || choice === 'none') return {};
  const functions: BaiduFunction[] = tools.map(({ function: tool }) => ({
    name: tool.name,
    description: tool.description ?? '',
    parameters: tool.parameters ?? { type: 'object', properties: {} },
  }));
  let forced: string | undefined;
  if (typeof choice === 'object') forced = choice.function.name;
  if (choice === 'required') {
    if (tools.length > 1) {
      throw new UnsupportedOptionError(BAIDU, 'tool_choice required with several tools', 'name the tool');
    }
    forced = tools[0]!.function.name;
  }
  return {
    functions,
    ...(forced ? { tool_choice: { type: 'function' as const, function: { name: forced } } } : {}),
  };
}

/** A number the client sent in a field the canonical type does not name (ERNIE's own penalty_score). */
const numberField = (request: ChatRequest, name: string): number | undefined =>
  typeof request[name] === 'number' ? request[name] : undefined;

/**
 * A canonical chat request → the body of ERNIE's chat endpoint (the model is in the URL). The client's
 * `user` is ERNIE's user_id; frequency_penalty and presence_penalty pass as they are (ERNIE-3.5 and 4.0 take
 * them, others ignore them); penalty_score passes when the client sent it.
 */
export function convertToBaiduRequest(request: ChatRequest, isStream: boolean): BaiduChatRequest {
  refuseUnsupported(request);
  const { system, messages } = convertToBaiduMessages(request.messages);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const penaltyScore = numberField(request, 'penalty_score');
  const temperature =
    request.temperature === undefined
      ? undefined
      : Math.min(1, Math.max(MIN_TEMPERATURE, request.temperature));
  return {
    messages,
    ...(system ? { system } : {}),
    ...(isStream ? { stream: true } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(penaltyScore !== undefined ? { penalty_score: penaltyScore } : {}),
    ...(request.frequency_penalty !== undefined ? { frequency_penalty: request.frequency_penalty } : {}),
    ...(request.presence_penalty !== undefined ? { presence_penalty: request.presence_penalty } : {}),
    ...(stop?.length ? { stop: stop.filter((sequence) => sequence !== '') } : {}),
    ...(maxTokens !== undefined ? { max_output_tokens: maxTokens } : {}),
    ...(request.response_format?.type === 'json_object' ? { response_format: 'json_object' as const } : {}),
    ...convertTools(request),
    ...(request.user ? { user_id: request.user } : {}),
  };
}
