import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { cleanGeminiJsonSchema } from './clean-gemini-json-schema';
import { convertToGeminiContents } from './convert-to-gemini-contents';
import { GEMINI } from './convert-to-gemini-parts';
import { convertToGeminiThinkingConfig, isGemini3OrLater } from './convert-to-gemini-thinking-config';
import { convertToGeminiToolConfig, convertToGeminiTools } from './convert-to-gemini-tools';
import type {
  GeminiGenerateContentRequest,
  GeminiGenerationConfig,
  GeminiSafetySetting,
} from './gemini-wire-types';

/** Options a client may send that this translation cannot carry: refused before anything is charged. */
function refuseUntranslated(request: ChatRequest): void {
  if (request.logprobs === true || request.top_logprobs !== undefined)
    throw new UnsupportedOptionError(GEMINI, 'logprobs', 'log probabilities are not translated from Gemini');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0)
    throw new UnsupportedOptionError(GEMINI, 'logit_bias');
}

function convertResponseFormat(request: ChatRequest): Partial<GeminiGenerationConfig> {
  const format = request.response_format;
  if (format?.type === 'json_object') return { responseMimeType: 'application/json' };
  if (format?.type === 'json_schema') {
    const schema = format.json_schema.schema;
    return {
      responseMimeType: 'application/json',
      ...(schema ? { responseJsonSchema: cleanGeminiJsonSchema(schema) } : {}),
    };
  }
  return {};
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, each]) => each !== undefined && each !== null),
  ) as T;
}

/** A Gemini client's safetySettings, which its decoder keeps on the canonical request under Gemini's name. */
function readSafetySettings(request: ChatRequest): GeminiSafetySetting[] | undefined {
  const settings = request.safetySettings;
  return Array.isArray(settings) && settings.length > 0 ? (settings as GeminiSafetySetting[]) : undefined;
}

/**
 * A canonical chat request as the body of generateContent / streamGenerateContent
 * (https://ai.google.dev/api/generate-content#request-body), the same for the Gemini API and Vertex AI; the
 * URL and the credentials are the caller's. `user` has no Gemini field and is dropped.
 */
export function convertToGeminiRequest(
  request: ChatRequest,
  upstreamModel: string,
): GeminiGenerateContentRequest {
  refuseUntranslated(request);
  const isGemini3 = isGemini3OrLater(upstreamModel);
  const { systemInstruction, contents } = convertToGeminiContents(request.messages, isGemini3);
  const tools = convertToGeminiTools(request.tools);
  const toolConfig = convertToGeminiToolConfig(request.tool_choice, tools);
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const generationConfig = withoutUndefined<GeminiGenerationConfig>({
    temperature: request.temperature,
    topP: request.top_p,
    topK: request.top_k,
    candidateCount: request.n !== undefined && request.n !== 1 ? request.n : undefined,
    maxOutputTokens: request.max_completion_tokens ?? request.max_tokens,
    stopSequences: stop?.length ? stop : undefined,
    seed: request.seed,
    presencePenalty: request.presence_penalty,
    frequencyPenalty: request.frequency_penalty,
    thinkingConfig: convertToGeminiThinkingConfig(request, upstreamModel),
    ...convertResponseFormat(request),
  });
  return withoutUndefined<GeminiGenerateContentRequest>({
    contents,
    systemInstruction,
    tools,
    toolConfig,
    generationConfig: Object.keys(generationConfig).length > 0 ? generationConfig : undefined,
    safetySettings: readSafetySettings(request),
  });
}
