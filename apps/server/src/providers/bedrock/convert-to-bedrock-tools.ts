import type { ChatTool, FunctionTool, ToolChoice } from '../../canonical/chat';
import type {
  BedrockConverseRequest,
  BedrockMessage,
  BedrockTool,
  BedrockToolChoice,
} from './bedrock-converse-types';
import { toCachePoint } from './convert-to-bedrock-content';

const isFunctionTool = (tool: ChatTool): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

function convertTool(tool: FunctionTool): BedrockTool[] {
  const { name, description, parameters, strict } = tool.function;
  const spec = {
    name,
    ...(description ? { description } : {}),
    inputSchema: { json: parameters ?? { type: 'object', properties: {} } },
    ...(strict ? { strict } : {}),
  };
  return [{ toolSpec: spec }, ...toCachePoint(tool.cache_control)];
}

function convertToolChoice(choice: ToolChoice | undefined): BedrockToolChoice | undefined {
  if (choice === 'required') return { any: {} };
  if (typeof choice === 'object') return { tool: { name: choice.function.name } };
  if (choice === 'auto') return { auto: {} };
  return undefined;
}

const hasToolBlocks = (messages: BedrockMessage[]) =>
  messages.some((message) => message.content.some((block) => 'toolUse' in block || 'toolResult' in block));

/**
 * Function tools → Converse's toolConfig. Vendor tools (Anthropic's web search, OpenAI's …) belong to another
 * protocol and are left out. Converse has no tool_choice "none": the tools are withheld instead, unless the
 * conversation already holds tool calls or results, for which Converse requires toolConfig.
 */
export function convertToBedrockToolConfig(
  tools: ChatTool[] | undefined,
  choice: ToolChoice | undefined,
  messages: BedrockMessage[],
): BedrockConverseRequest['toolConfig'] {
  const functionTools = (tools ?? []).filter(isFunctionTool);
  if (functionTools.length === 0) return undefined;
  if (choice === 'none' && !hasToolBlocks(messages)) return undefined;
  const toolChoice = convertToolChoice(choice);
  return { tools: functionTools.flatMap(convertTool), ...(toolChoice ? { toolChoice } : {}) };
}
