import type { ChatRequest, ChatTool, FunctionTool } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToTencentMessages } from './convert-to-tencent-messages';
import { TENCENT, type HunyuanChatRequest, type HunyuanTool } from './tencent-wire-types';

function refuseUnsupported(request: ChatRequest): void {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(TENCENT, 'n > 1');
  if (request.logprobs) throw new UnsupportedOptionError(TENCENT, 'logprobs');
  if (request.response_format && request.response_format.type !== 'text') {
    throw new UnsupportedOptionError(
      TENCENT,
      `response_format ${request.response_format.type}`,
      'ask for JSON in the prompt',
    );
  }
}

const isFunctionTool = (tool: ChatTool): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

const toHunyuanTool = ({ function: tool }: FunctionTool): HunyuanTool => ({
  Type: 'function',
  Function: {
    Name: tool.name,
    Parameters: JSON.stringify(tool.parameters ?? { type: 'object', properties: {} }),
    ...(tool.description ? { Description: tool.description } : {}),
  },
});

/** OpenAI's tool_choice as Hunyuan's: a named function (or `required` with one tool) is ToolChoice custom. */
function convertTools(request: ChatRequest): Pick<HunyuanChatRequest, 'Tools' | 'ToolChoice' | 'CustomTool'> {
  const tools = (request.tools ?? []).filter(isFunctionTool);
  if (tools.length === 0) return {};
  const choice = request.tool_choice;
  const Tools = tools.map(toHunyuanTool);
  if (choice === 'none' || choice === 'auto') return { Tools, ToolChoice: choice };
  if (choice === 'required' && tools.length > 1) {
    throw new UnsupportedOptionError(TENCENT, 'tool_choice required with several tools', 'name the tool');
  }
  const forced =
    choice === 'required'
      ? tools[0]
      : typeof choice === 'object'
        ? tools.find((tool) => tool.function.name === choice.function.name)
        : undefined;
  return forced ? { Tools, ToolChoice: 'custom', CustomTool: toHunyuanTool(forced) } : { Tools };
}

/**
 * A canonical chat request → the ChatCompletions body. Hunyuan has no output-length limit field: max_tokens
 * is not sent (the model's own limit applies). Penalties and top_k have no Hunyuan field either.
 */
export function convertToTencentRequest(
  request: ChatRequest,
  model: string,
  isStream: boolean,
): HunyuanChatRequest {
  refuseUnsupported(request);
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  return {
    Model: model,
    Messages: convertToTencentMessages(request.messages, model),
    Stream: isStream,
    ...(request.temperature !== undefined ? { Temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { TopP: request.top_p } : {}),
    ...(stop?.length ? { Stop: stop.filter((sequence) => sequence !== '') } : {}),
    ...(request.seed !== undefined ? { Seed: request.seed } : {}),
    ...convertTools(request),
  };
}
