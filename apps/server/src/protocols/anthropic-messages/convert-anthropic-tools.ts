import type { ChatRequest, ChatTool, JsonSchema } from '../../canonical/chat';
import type { ChatProtocol } from '../../canonical/translation';
import {
  invalidField,
  readOptionalBoolean,
  readOptionalString,
  requireArray,
  requireObject,
  requireString,
  unexpectedTag,
  type Json,
} from './anthropic-request-fields';
import { readCacheControl } from './convert-anthropic-blocks';

const PROTOCOL: ChatProtocol = 'anthropic-messages';

/**
 * A custom tool (`type` absent or 'custom', with an input_schema) is a function tool; any other type is one
 * of Anthropic's own tools (web_search_20250305, bash_20250124, text_editor_…, computer_…, code_execution_…),
 * kept whole as a vendor tool that only an Anthropic channel gets
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview).
 */
function convertTool(tool: Json, path: string): ChatTool {
  if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
    return { type: requireString(tool.type, `${path}.type`), vendor_protocol: PROTOCOL, definition: tool };
  }
  const name = requireString(tool.name, `${path}.name`);
  const parameters = requireObject(tool.input_schema, `${path}.input_schema`) as JsonSchema;
  const description = readOptionalString(tool.description, `${path}.description`);
  const strict = readOptionalBoolean(tool.strict, `${path}.strict`);
  return {
    type: 'function',
    function: {
      name,
      ...(description !== undefined ? { description } : {}),
      parameters,
      ...(strict !== undefined ? { strict } : {}),
    },
    ...readCacheControl(tool),
  };
}

export function convertAnthropicTools(tools: unknown): ChatTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  const list = requireArray(tools, 'tools');
  return list.map((tool, index) => convertTool(requireObject(tool, `tools.${index}`), `tools.${index}`));
}

const TOOL_CHOICES = ['auto', 'any', 'tool', 'none'] as const;

/**
 * Anthropic's tool_choice as OpenAI's: any → required, tool → a named function; disable_parallel_tool_use →
 * parallel_tool_calls false.
 */
export function convertAnthropicToolChoice(
  choice: unknown,
): Pick<ChatRequest, 'tool_choice' | 'parallel_tool_calls'> {
  if (choice === undefined || choice === null) return {};
  const fields = requireObject(choice, 'tool_choice');
  const isSerial = readOptionalBoolean(
    fields.disable_parallel_tool_use,
    'tool_choice.disable_parallel_tool_use',
  );
  const serial = isSerial === true ? { parallel_tool_calls: false } : {};
  switch (fields.type) {
    case 'auto':
      return { tool_choice: 'auto', ...serial };
    case 'any':
      return { tool_choice: 'required', ...serial };
    case 'tool': {
      const name = requireString(fields.name, 'tool_choice.name');
      return { tool_choice: { type: 'function', function: { name } }, ...serial };
    }
    case 'none':
      return { tool_choice: 'none' };
    default:
      throw fields.type === undefined
        ? invalidField('tool_choice.type', 'Field required')
        : unexpectedTag('tool_choice.type', fields.type, TOOL_CHOICES);
  }
}
