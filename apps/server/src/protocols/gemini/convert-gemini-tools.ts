import type { ChatTool, FunctionTool, ToolChoice } from '../../canonical/chat';
import { GEMINI_PROTOCOL } from '../../providers/gemini/convert-to-gemini-tools';
import { convertGeminiSchema } from './convert-gemini-schema';
import {
  invalidField,
  readList,
  readObject,
  readOptionalList,
  readOptionalObject,
  readOptionalString,
  readString,
} from './gemini-request-fields';

function convertDeclaration(value: unknown, path: string): FunctionTool {
  const declaration = readObject(value, path);
  const name = readString(declaration.name, `${path}.name`);
  const description = readOptionalString(declaration.description, `${path}.description`);
  const jsonSchema = readOptionalObject(declaration.parametersJsonSchema, `${path}.parametersJsonSchema`);
  const schema = readOptionalObject(declaration.parameters, `${path}.parameters`);
  const parameters = jsonSchema ?? (schema ? convertGeminiSchema(schema) : undefined);
  return {
    type: 'function',
    function: { name, ...(description ? { description } : {}), ...(parameters ? { parameters } : {}) },
  };
}

/**
 * `tools` (https://ai.google.dev/api/caching#Tool): each function declaration a function tool, its schema
 * as JSON Schema (`parametersJsonSchema` as it is, `parameters` converted from Gemini's OpenAPI subset).
 * Google's own tools (googleSearch, codeExecution, urlContext …) become vendor tools, one per key, which
 * the Gemini translator sends back as they came and translators to other vendors drop.
 */
export function convertGeminiTools(value: unknown): ChatTool[] | undefined {
  const entries = readOptionalList(value, 'tools');
  if (!entries?.length) return undefined;
  const tools: ChatTool[] = [];
  entries.forEach((entry, index) => {
    const path = `tools[${index}]`;
    for (const [key, definition] of Object.entries(readObject(entry, path))) {
      if (key === 'functionDeclarations') {
        readList(definition, `${path}.functionDeclarations`).forEach((declaration, position) =>
          tools.push(convertDeclaration(declaration, `${path}.functionDeclarations[${position}]`)),
        );
      } else if (definition !== undefined && definition !== null) {
        tools.push({ type: key, vendor_protocol: GEMINI_PROTOCOL, definition: { [key]: definition } });
      }
    }
  });
  return tools.length > 0 ? tools : undefined;
}

const MODES = ['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED'];

/**
 * toolConfig.functionCallingConfig (https://ai.google.dev/api/caching#FunctionCallingConfig) as tool_choice:
 * NONE → none, AUTO and VALIDATED → auto, ANY → required, or the one function when ANY allows only one. ANY
 * limited to several functions has no tool_choice form: required, among all of them.
 */
export function convertGeminiToolConfig(value: unknown): ToolChoice | undefined {
  const config = readOptionalObject(value, 'toolConfig');
  const calling = readOptionalObject(config?.functionCallingConfig, 'toolConfig.functionCallingConfig');
  if (!calling) return undefined;
  const path = 'toolConfig.functionCallingConfig';
  const mode = readOptionalString(calling.mode, `${path}.mode`)?.toUpperCase();
  if (mode !== undefined && !MODES.includes(mode))
    throw invalidField(`${path}.mode`, calling.mode, MODES.join(', '));
  const allowed = (readOptionalList(calling.allowedFunctionNames, `${path}.allowedFunctionNames`) ?? []).map(
    (name, index) => readString(name, `${path}.allowedFunctionNames[${index}]`),
  );
  switch (mode) {
    case 'NONE':
      return 'none';
    case 'ANY':
      return allowed.length === 1 ? { type: 'function', function: { name: allowed[0] } } : 'required';
    case 'AUTO':
    case 'VALIDATED':
      return 'auto';
    default:
      return undefined;
  }
}
