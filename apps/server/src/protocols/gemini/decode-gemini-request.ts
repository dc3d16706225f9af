import type { ChatRequest } from '../../canonical/chat';
import { convertGeminiContents } from './convert-gemini-contents';
import { convertGeminiGenerationConfig } from './convert-gemini-generation-config';
import { convertGeminiToolConfig, convertGeminiTools } from './convert-gemini-tools';
import { readOptionalList, readOptionalString, type Json } from './gemini-request-fields';

/** What a Gemini call's URL says: `/v1beta/models/{model}:generateContent` or `:streamGenerateContent`. */
export interface GeminiCallTarget {
  /** the model id without `models/` */
  model: string;
  isStream: boolean;
}

/**
 * A GenerateContentRequest (https://ai.google.dev/api/generate-content#request-body) as a canonical chat
 * request; the model and whether to stream come from the URL. Gemini's safetySettings and cachedContent have
 * no canonical form: they stay on the request under their own names, for the Gemini translator, and reach a
 * Gemini channel untouched on the pass-through lane. Throws a 400 naming the field when the body is not one.
 */
export function decodeGeminiRequest(body: Json, target: GeminiCallTarget): ChatRequest {
  const messages = convertGeminiContents(body.contents, body.systemInstruction);
  const tools = convertGeminiTools(body.tools);
  const toolChoice = convertGeminiToolConfig(body.toolConfig);
  const safetySettings = readOptionalList(body.safetySettings, 'safetySettings');
  const cachedContent = readOptionalString(body.cachedContent, 'cachedContent');
  return {
    model: target.model,
    messages,
    ...(target.isStream ? { stream: true, stream_options: { include_usage: true } } : {}),
    ...convertGeminiGenerationConfig(body.generationConfig),
    ...(tools ? { tools } : {}),
    ...(toolChoice && tools ? { tool_choice: toolChoice } : {}),
    ...(safetySettings?.length ? { safetySettings } : {}),
    ...(cachedContent ? { cachedContent } : {}),
  };
}
