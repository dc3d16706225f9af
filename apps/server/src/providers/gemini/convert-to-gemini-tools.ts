import type { ChatTool, FunctionTool, ToolChoice, VendorTool } from '../../canonical/chat';
import { cleanGeminiJsonSchema, hasNoParameters } from './clean-gemini-json-schema';
import type { GeminiFunctionDeclaration, GeminiTool, GeminiToolConfig } from './gemini-wire-types';

const isFunctionTool = (tool: ChatTool): tool is FunctionTool =>
  tool.type === 'function' && 'function' in tool;

/** The protocol name Gemini's own tools (googleSearch, codeExecution, urlContext …) carry in the canonical types. */
export const GEMINI_PROTOCOL = 'gemini';

/**
 * Function tools become one entry of functionDeclarations with their schema as parametersJsonSchema (JSON
 * Schema, cleaned of what Gemini rejects), rather than `parameters` and its OpenAPI subset, which refuses
 * whole requests over keywords like additionalProperties or exclusiveMinimum. Gemini's own tools come as the
 * client sent them; other vendors' tools (Anthropic's web search …) mean nothing to Gemini and are dropped.
 */
export function convertToGeminiTools(tools: readonly ChatTool[] | undefined): GeminiTool[] | undefined {
  if (!tools?.length) return undefined;
  const declarations: GeminiFunctionDeclaration[] = [];
  const vendorTools: GeminiTool[] = [];
  for (const tool of tools) {
    if (isFunctionTool(tool)) {
      const { name, description, parameters } = tool.function;
      declarations.push({
        name,
        ...(description ? { description } : {}),
        ...(hasNoParameters(parameters) ? {} : { parametersJsonSchema: cleanGeminiJsonSchema(parameters!) }),
      });
    } else if ((tool as VendorTool).vendor_protocol === GEMINI_PROTOCOL) {
      vendorTools.push((tool as VendorTool).definition as GeminiTool);
    }
  }
  const converted = [
    ...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []),
    ...vendorTools,
  ];
  return converted.length > 0 ? converted : undefined;
}

/**
 * tool_choice as functionCallingConfig: none → NONE, auto → AUTO, required → ANY, a named function → ANY
 * limited to it. Gemini has no switch for parallel calls, so parallel_tool_calls is not translated.
 */
export function convertToGeminiToolConfig(
  choice: ToolChoice | undefined,
  tools: GeminiTool[] | undefined,
): GeminiToolConfig | undefined {
  if (choice === undefined || !tools?.some((tool) => tool.functionDeclarations)) return undefined;
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}
