import type { ChatTool, FunctionTool, ResponseFormat, ToolChoice } from '../../canonical/chat';
import {
  invalidField,
  isJsonObject,
  readArray,
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

function convertFunctionTool(tool: JsonObject, param: string, namespace?: string): FunctionTool {
  const name = chatToolName(readRequiredString(tool, 'name', `${param}.name`), namespace);
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
 * Where a chat function tool came from when it is not a plain function tool: a custom (free-form) tool, a
 * tool inside a namespace, or a tool search the client runs. The answer's calls of it are written back in
 * that form.
 */
export interface ResponsesToolOrigin {
  kind: 'function' | 'custom' | 'tool_search';
  /** the tool's own name */
  name: string;
  namespace?: string;
}

/** The origins of one request's tools, by the name the model sees; plain function tools are not in it. */
export type ResponsesToolOrigins = ReadonlyMap<string, ResponsesToolOrigin>;

export const NO_TOOL_ORIGINS: ResponsesToolOrigins = new Map();

/**
 * The name a model of another vendor sees for a tool inside a namespace: one word, as every vendor's function
 * names must be (no dots). The answer's calls are mapped back through the request's origins, not by splitting.
 */
export function chatToolName(name: string, namespace: string | undefined): string {
  return namespace === undefined ? name : `${namespace}__${name}`;
}

/** A custom tool's free-form input as the arguments of the function tool that stands in for it. */
export function customToolArguments(input: string): string {
  return JSON.stringify({ input });
}

/**
 * The free-form input back from such arguments. A model that wrote something else than `{"input": "…"}` gets
 * its text passed on as it is: the tool, not the gateway, says what is wrong with it.
 */
export function customToolInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isJsonObject(parsed) && typeof parsed.input === 'string') return parsed.input;
  } catch {
    // not JSON: the text itself
  }
  return args;
}

/** A tool search's arguments as the object the item carries ({} when the model wrote no JSON object). */
export function toolSearchArguments(args: string): unknown {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * A custom tool as a function tool taking its input as one string. Its grammar (Codex's apply_patch has one),
 * which only OpenAI enforces, goes into the description, so another vendor's model still learns the format.
 */
function convertCustomTool(tool: JsonObject, param: string, namespace: string | undefined): FunctionTool {
  const name = readRequiredString(tool, 'name', `${param}.name`);
  const description = readString(tool, 'description', `${param}.description`);
  const format = readObject(tool, 'format', `${param}.format`);
  const grammar = format?.type === 'grammar' && typeof format.definition === 'string' ? format : undefined;
  const syntax = typeof grammar?.syntax === 'string' ? `${grammar.syntax} ` : '';
  const described = [
    description,
    grammar && `The input must follow this ${syntax}grammar:\n${String(grammar.definition)}`,
  ]
    .filter((text) => text)
    .join('\n\n');
  return {
    type: 'function',
    function: {
      name: chatToolName(name, namespace),
      ...(described !== '' && { description: described }),
      parameters: {
        type: 'object',
        properties: { input: { type: 'string', description: 'The input, as free-form text.' } },
        required: ['input'],
        additionalProperties: false,
      },
    },
  };
}

/** The function name of a client-run tool search. */
export const TOOL_SEARCH = 'tool_search';

/**
 * A tool search the client runs (Codex's, over the tools it holds back, MCP tools among them) as the function
 * it is: the model calls it with the parameters given, the client answers with the tools it found
 * (a tool_search_output item), which the request then offers (convertResponsesRequest).
 */
function convertClientToolSearch(tool: JsonObject, param: string): FunctionTool {
  const description = readString(tool, 'description', `${param}.description`);
  const parameters = readObject(tool, 'parameters', `${param}.parameters`);
  return {
    type: 'function',
    function: {
      name: TOOL_SEARCH,
      ...(description !== undefined && { description }),
      ...(parameters !== undefined && { parameters }),
    },
  };
}

interface ConvertedTools {
  tools: ChatTool[];
  origins: ResponsesToolOrigins;
}

/**
 * Tools in their chat form. Function tools become chat function tools; a custom tool becomes a function tool
 * taking its input as a string, a namespace's tools become function tools named namespace__name, and a tool
 * search the client runs becomes the function it is, so that a model of any vendor can call them (Codex sends
 * its apply_patch as a custom tool, its sub-agent and MCP tools in namespaces, or holds MCP tools back behind
 * its tool search); `origins` says how to write their calls back. Every other type (web_search, file_search,
 * computer_use_preview, code_interpreter, mcp, local_shell, image_generation, a server-run tool_search …) is
 * one of OpenAI's built-in tools: it is kept as a vendor tool of the 'openai-responses' protocol, which
 * translators to other vendors drop.
 */
export function convertResponsesTools(tools: unknown[]): ConvertedTools {
  const converted: ChatTool[] = [];
  const origins = new Map<string, ResponsesToolOrigin>();
  const names = new Set<string>();
  const addTool = (tool: JsonObject, param: string, namespace?: string): boolean => {
    const type = readRequiredString(tool, 'type', `${param}.type`);
    if (type !== 'function' && type !== 'custom') return false;
    const chatTool =
      type === 'custom'
        ? convertCustomTool(tool, param, namespace)
        : convertFunctionTool(tool, param, namespace);
    // A tool found by two tool searches is offered once.
    if (names.has(chatTool.function.name)) return true;
    names.add(chatTool.function.name);
    converted.push(chatTool);
    if (type === 'custom' || namespace !== undefined) {
      origins.set(chatTool.function.name, { kind: type, name: String(tool.name), namespace });
    }
    return true;
  };
  tools.forEach((tool, index) => {
    const param = `tools[${index}]`;
    if (!isJsonObject(tool)) throw invalidField(param, `${param} must be an object`);
    if (addTool(tool, param)) return;
    if (tool.type === TOOL_SEARCH && tool.execution === 'client') {
      converted.push(convertClientToolSearch(tool, param));
      origins.set(TOOL_SEARCH, { kind: 'tool_search', name: TOOL_SEARCH });
      return;
    }
    if (tool.type === 'namespace') {
      const namespace = readRequiredString(tool, 'name', `${param}.name`);
      const inner = readArray(tool, 'tools', `${param}.tools`) ?? [];
      inner.forEach((member, memberIndex) => {
        const memberParam = `${param}.tools[${memberIndex}]`;
        if (!isJsonObject(member)) throw invalidField(memberParam, `${memberParam} must be an object`);
        addTool(member, memberParam, namespace);
      });
      return;
    }
    converted.push({ type: String(tool.type), vendor_protocol: 'openai-responses', definition: tool });
  });
  return { tools: converted, origins };
}

const toolChoiceModes = new Set(['none', 'auto', 'required']);

/** A function or custom tool's name as the chat tools have it: namespace__name when it names a namespace. */
function chosenToolName(choice: JsonObject): unknown {
  return typeof choice.name === 'string' && typeof choice.namespace === 'string'
    ? chatToolName(choice.name, choice.namespace)
    : choice.name;
}

/**
 * Whether a tool is one an allowed_tools choice lists: a function or custom tool by its name, a built-in tool
 * by its type.
 */
function allowedToolFilter(choice: JsonObject): (tool: ChatTool) => boolean {
  const listed = (Array.isArray(choice.tools) ? choice.tools : []).filter(isJsonObject);
  const names = new Set(
    listed.filter((tool) => tool.type === 'function' || tool.type === 'custom').map(chosenToolName),
  );
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
 * mode over the tools it allows; a custom tool's is its function's. A choice of a built-in tool (file_search,
 * mcp …) names a tool only a Responses upstream has: it becomes 'auto', with the vendor tool itself.
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
  if (type === 'function' || type === 'custom') {
    readRequiredString(choice, 'name', 'tool_choice.name');
    return { toolChoice: { type: 'function', function: { name: String(chosenToolName(choice)) } } };
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
