import type { ChatRequest, ChatTool, FunctionTool, VendorTool } from '../../canonical/chat';
import type { ChatProtocol } from '../../canonical/translation';
import type { AnthropicModelTraits } from './anthropic-model-traits';
import type { AnthropicTool, AnthropicToolChoice } from './anthropic-wire-types';

const PROTOCOL: ChatProtocol = 'anthropic-messages';

const isFunctionTool = (tool: ChatTool): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

const isAnthropicTool = (tool: ChatTool): tool is VendorTool =>
  'vendor_protocol' in tool && tool.vendor_protocol === PROTOCOL;

/** OpenAI's `strict` goes only to models with structured outputs; the others refuse it. */
function convertFunctionTool(
  { function: definition, cache_control }: FunctionTool,
  canBeStrict: boolean,
): AnthropicTool {
  const { parameters } = definition;
  return {
    name: definition.name,
    ...(definition.description ? { description: definition.description } : {}),
    input_schema:
      parameters && Object.keys(parameters).length > 0 ? parameters : { type: 'object', properties: {} },
    ...(cache_control ? { cache_control } : {}),
    ...(definition.strict === true && canBeStrict ? { strict: true } : {}),
  };
}

/**
 * Function tools, and Anthropic's own tools (web search, computer use …) as the client defined them; other
 * vendors' tools are left out.
 */
export function convertToAnthropicTools(
  tools: ChatTool[] | undefined,
  traits: Pick<AnthropicModelTraits, 'hasStructuredOutputs'>,
): AnthropicTool[] {
  const converted: AnthropicTool[] = [];
  for (const tool of tools ?? []) {
    if (isFunctionTool(tool)) converted.push(convertFunctionTool(tool, traits.hasStructuredOutputs));
    else if (isAnthropicTool(tool)) converted.push(tool.definition as AnthropicTool);
  }
  return converted;
}

/**
 * OpenAI's tool_choice and parallel_tool_calls as one Anthropic tool_choice: required → any, a named
 * function → tool; parallel_tool_calls false → disable_parallel_tool_use. Anthropic refuses a tool_choice
 * without tools, so there is none then.
 */
export function convertToAnthropicToolChoice(
  request: Pick<ChatRequest, 'tool_choice' | 'parallel_tool_calls'>,
  hasTools: boolean,
): AnthropicToolChoice | undefined {
  if (!hasTools) return undefined;
  const { tool_choice: choice, parallel_tool_calls: parallel } = request;
  if (choice === 'none') return { type: 'none' };
  const serial = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'required') return { type: 'any', ...serial };
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name, ...serial };
  if (choice === 'auto' || parallel === false) return { type: 'auto', ...serial };
  return undefined;
}
