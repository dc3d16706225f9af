import type { ChatTool, FunctionTool, ResponseFormat, ToolChoice } from '../../canonical/chat';
import {
  invalidField,
  isJsonObject,
  readBoolean,
  readObject,
  readRequiredString,
  readString,
  type JsonObject,
} from './responses-fields';

/**
 * Tools, tool_choice and text.format of a Responses request in their chat form. The Responses API spells a
 * function tool flat ({type, name, parameters}) where chat nests it under `function`
 * (https://platform.openai.com/docs/guides/function-calling).
 */

function convertFunctionTool(tool: JsonObject, param: string): FunctionTool {
  const name = readRequiredString(tool, 'name', `${param}.name`);
  const description = readString(tool, 'description', `${param}.description`);
  const parameters = readObject(tool, 'parameters', `${param}.parameters`);
  // Responses defaults `strict` to true, chat to false. Only an explicit value is passed on: forcing strict
  // mode would make a vendor reject every schema that strict mode does not allow.
  const strict = readBoolean(tool, 'strict', `${param}.strict`);
  return {
    type: 'function',
    function: {
      name,
      ...(description !== undefined && { description }),
      ...(parameters !== undefined && { parameters }),
      ...(strict !== undefined && { strict }),
    },
  };
}

/**
 * Function tools become chat function tools. Every other type (web_search, file_search, computer_use_preview,
 * code_interpreter, mcp, custom, local_shell, image_generation …) is one of OpenAI's built-in tools: it is
 * kept as a vendor tool of the 'openai-responses' protocol, which only a Responses upstream can run and
 * translators to other vendors drop.
 */
export function convertResponsesTools(tools: unknown[]): ChatTool[] {
  return tools.map((tool, index) => {
    const param = `tools[${index}]`;
    if (!isJsonObject(tool)) throw invalidField(param, `${param} must be an object`);
    const type = readRequiredString(tool, 'type', `${param}.type`);
    if (type === 'function') return convertFunctionTool(tool, param);
    return { type, vendor_protocol: 'openai-responses', definition: tool };
  });
}

const toolChoiceModes = new Set(['none', 'auto', 'required']);

/** Whether a tool is one an allowed_tools choice lists: a function by its name, a built-in tool by its type. */
function allowedToolFilter(choice: JsonObject): (tool: ChatTool) => boolean {
  const listed = (Array.isArray(choice.tools) ? choice.tools : []).filter(isJsonObject);
  const names = new Set(listed.filter((tool) => tool.type === 'function').map((tool) => tool.name));
  const types = new Set(listed.map((tool) => tool.type));
  return (tool) => ('function' in tool ? names.has(tool.function.name) : types.has(tool.type));
}

export interface ConvertedToolChoice {
  toolChoice?: ToolChoice;
  /** allowed_tools narrows the tools to the ones it lists: the chat form has no such list */
  isAllowed?: (tool: ChatTool) => boolean;
}

/**
 * tool_choice: the modes as they are, `{type: 'function', name}` nested as chat nests it, allowed_tools as its
 * mode over the tools it allows. A choice of a built-in tool (file_search, mcp, custom …) names a tool only a
 * Responses upstream has: it becomes 'auto', with the vendor tool itself.
 */
export function convertResponsesToolChoice(choice: unknown): ConvertedToolChoice {
  if (choice === undefined || choice === null) return {};
  if (typeof choice === 'string') {
    if (!toolChoiceModes.has(choice)) {
      throw invalidField('tool_choice', 'tool_choice must be none, auto, required or an object');
    }
    return { toolChoice: choice as 'none' | 'auto' | 'required' };
  }
  if (!isJsonObject(choice)) throw invalidField('tool_choice', 'tool_choice must be a string or an object');
  const type = readRequiredString(choice, 'type', 'tool_choice.type');
  if (type === 'function') {
    return {
      toolChoice: {
        type: 'function',
        function: { name: readRequiredString(choice, 'name', 'tool_choice.name') },
      },
    };
  }
  if (type === 'allowed_tools') {
    const mode = choice.mode;
    if (mode !== 'auto' && mode !== 'required') {
      throw invalidField('tool_choice.mode', 'tool_choice.mode must be auto or required');
    }
    return { toolChoice: mode, isAllowed: allowedToolFilter(choice) };
  }
  return { toolChoice: 'auto' };
}

/** text.format → response_format: json_schema is flat here ({type, name, schema}), nested in chat. */
export function convertResponsesTextFormat(text: JsonObject | undefined): ResponseFormat | undefined {
  const format = text && readObject(text, 'format', 'text.format');
  if (!format) return undefined;
  const type = readRequiredString(format, 'type', 'text.format.type');
  switch (type) {
    case 'text':
    case 'json_object':
      return { type };
    case 'json_schema': {
      const description = readString(format, 'description', 'text.format.description');
      const schema = readObject(format, 'schema', 'text.format.schema');
      const strict = readBoolean(format, 'strict', 'text.format.strict');
      return {
        type: 'json_schema',
        json_schema: {
          name: readRequiredString(format, 'name', 'text.format.name'),
          ...(description !== undefined && { description }),
          ...(schema !== undefined && { schema }),
          ...(strict !== undefined && { strict }),
        },
      };
    }
    default:
      throw invalidField('text.format.type', 'text.format.type must be text, json_object or json_schema');
  }
}
