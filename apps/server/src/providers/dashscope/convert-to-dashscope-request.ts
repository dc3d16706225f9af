import type { ChatRequest, ChatTool, FunctionTool } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { isDashScopeVisionModel, readDashScopeModelName } from './dashscope-model-traits';
import { DASHSCOPE, type DashScopeParameters, type DashScopeRequest } from './dashscope-wire-types';
import { convertToDashScopeMessages } from './convert-to-dashscope-messages';

function refuseUnsupported(request: ChatRequest): void {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(DASHSCOPE, 'n > 1');
  if (request.logprobs) throw new UnsupportedOptionError(DASHSCOPE, 'logprobs');
  if (request.response_format?.type === 'json_schema') {
    throw new UnsupportedOptionError(DASHSCOPE, 'response_format json_schema', 'use json_object');
  }
}

const isFunctionTool = (tool: ChatTool): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

function convertTools(
  request: ChatRequest,
): Pick<DashScopeParameters, 'tools' | 'tool_choice' | 'parallel_tool_calls'> {
  const tools = (request.tools ?? []).filter(isFunctionTool);
  if (tools.length === 0) return {};
  const choice = request.tool_choice;
  if (choice === 'required' && tools.length > 1) {
    throw new UnsupportedOptionError(DASHSCOPE, 'tool_choice required with several tools', 'name the tool');
  }
  const forced =
    choice === 'required'
      ? tools[0]!.function.name
      : typeof choice === 'object'
        ? choice.function.name
        : undefined;
  return {
    tools: tools.map(({ function: tool }) => ({
      type: 'function' as const,
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.parameters ?? { type: 'object', properties: {} },
      },
    })),
    ...(forced
      ? { tool_choice: { type: 'function' as const, function: { name: forced } } }
      : choice === 'none' || choice === 'auto'
        ? { tool_choice: choice }
        : {}),
    ...(request.parallel_tool_calls !== undefined
      ? { parallel_tool_calls: request.parallel_tool_calls }
      : {}),
  };
}

function convertThinking(
  request: ChatRequest,
): Pick<DashScopeParameters, 'enable_thinking' | 'thinking_budget'> {
  if (request.thinking?.type === 'enabled')
    return { enable_thinking: true, thinking_budget: request.thinking.budget_tokens };
  if (request.thinking?.type === 'disabled') return { enable_thinking: false };
  return {};
}

/**
 * A canonical chat request → DashScope's body for the text-generation or (vision models) the
 * multimodal-generation endpoint: result_format message, so answers have OpenAI's choices; streams with
 * incremental_output. A model named `…-internet` is called without the suffix and with enable_search.
 */
export function convertToDashScopeRequest(
  request: ChatRequest,
  upstreamModel: string,
  isStream: boolean,
): DashScopeRequest {
  refuseUnsupported(request);
  const { model, enableSearch } = readDashScopeModelName(upstreamModel);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const repetitionPenalty =
    typeof request.repetition_penalty === 'number' ? request.repetition_penalty : undefined;
  const parameters: DashScopeParameters = {
    result_format: 'message',
    ...(isStream ? { incremental_output: true } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(request.top_k !== undefined ? { top_k: request.top_k } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(stop?.length ? { stop: stop.filter((sequence) => sequence !== '') } : {}),
    ...(request.presence_penalty !== undefined ? { presence_penalty: request.presence_penalty } : {}),
    ...(repetitionPenalty !== undefined ? { repetition_penalty: repetitionPenalty } : {}),
    ...(request.response_format?.type === 'json_object'
      ? { response_format: { type: 'json_object' as const } }
      : {}),
    ...convertTools(request),
    ...convertThinking(request),
    ...(enableSearch ? { enable_search: true } : {}),
  };
  return {
    model,
    input: { messages: convertToDashScopeMessages(request.messages, model, isDashScopeVisionModel(model)) },
    parameters,
  };
}
