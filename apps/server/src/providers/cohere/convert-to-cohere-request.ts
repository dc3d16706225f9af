import type { ChatRequest, FunctionTool } from '../../canonical/chat';
import {
  UnsupportedOptionError,
  type CanonicalChatInput,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { COHERE, type CohereChatRequest, type CohereTool } from './cohere-wire-types';
import { convertToCohereMessages } from './convert-to-cohere-messages';

function refuseUnsupported(request: ChatRequest): void {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(COHERE, 'n > 1');
  if (request.logprobs) throw new UnsupportedOptionError(COHERE, 'logprobs');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0) {
    throw new UnsupportedOptionError(COHERE, 'logit_bias');
  }
}

const isFunctionTool = (tool: NonNullable<ChatRequest['tools']>[number]): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

/**
 * Function tools and the choice among them. Cohere's tool_choice knows only REQUIRED and NONE
 * (https://docs.cohere.com/reference/chat#request.body.tool_choice); a named function is asked for by
 * offering that tool alone with REQUIRED. Vendor tools of other protocols are dropped.
 */
function convertTools(
  request: ChatRequest,
): Pick<CohereChatRequest, 'tools' | 'strict_tools' | 'tool_choice'> {
  let tools = (request.tools ?? []).filter(isFunctionTool);
  const choice = request.tool_choice;
  if (tools.length === 0) return {};
  if (typeof choice === 'object') {
    tools = tools.filter((tool) => tool.function.name === choice.function.name);
    if (tools.length === 0) {
      throw new UnsupportedOptionError(COHERE, 'tool_choice', `no tool is named ${choice.function.name}`);
    }
  }
  const converted: CohereTool[] = tools.map(({ function: { name, description, parameters } }) => ({
    type: 'function',
    function: {
      name,
      ...(description !== undefined ? { description } : {}),
      ...(parameters !== undefined ? { parameters } : {}),
    },
  }));
  const toolChoice =
    choice === 'none' ? 'NONE' : choice === 'required' || typeof choice === 'object' ? 'REQUIRED' : undefined;
  return {
    tools: converted,
    ...(tools.some((tool) => tool.function.strict) ? { strict_tools: true } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
  };
}

function convertResponseFormat(request: ChatRequest): CohereChatRequest['response_format'] {
  const format = request.response_format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_object',
    ...(format.json_schema.schema ? { json_schema: format.json_schema.schema } : {}),
  };
}

/** A canonical chat request → the body of Cohere's POST /v2/chat. */
export function convertToCohereRequest(
  request: ChatRequest,
  upstreamModel: string,
  isStream: boolean,
): CohereChatRequest {
  refuseUnsupported(request);
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const responseFormat = convertResponseFormat(request);
  const { thinking } = request;
  return {
    model: upstreamModel,
    messages: convertToCohereMessages(request.messages),
    stream: isStream,
    ...convertTools(request),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { p: request.top_p } : {}),
    ...(request.top_k !== undefined ? { k: request.top_k } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(stop?.length ? { stop_sequences: stop } : {}),
    ...(request.frequency_penalty !== undefined ? { frequency_penalty: request.frequency_penalty } : {}),
    ...(request.presence_penalty !== undefined ? { presence_penalty: request.presence_penalty } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    ...(thinking?.type === 'enabled'
      ? { thinking: { type: 'enabled', token_budget: thinking.budget_tokens } }
      : thinking?.type === 'disabled'
        ? { thinking: { type: 'disabled' } }
        : {}),
  };
}

/** POST {base}/v2/chat with the channel's key as a bearer token (https://docs.cohere.com/reference/chat). */
export function buildCohereChatRequest(input: CanonicalChatInput): UpstreamHttpRequest {
  const body = convertToCohereRequest(input.request, input.upstreamModel, input.isStream);
  return {
    url: `${input.channel.baseUrl}/v2/chat`,
    headers: {
      authorization: `Bearer ${input.channel.key}`,
      'content-type': 'application/json',
      accept: input.isStream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
  };
}
