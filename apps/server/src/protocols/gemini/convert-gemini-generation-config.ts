import type { ChatRequest, ResponseFormat } from '../../canonical/chat';
import { convertGeminiSchema } from './convert-gemini-schema';
import {
  invalidField,
  readOptionalBoolean,
  readOptionalList,
  readOptionalNumber,
  readOptionalObject,
  readOptionalString,
  readString,
  type Json,
} from './gemini-request-fields';

const PATH = 'generationConfig';

/** JSON output: a schema as json_schema (JSON Schema as it is, Gemini's OpenAPI subset converted), else json_object. */
function convertResponseFormat(config: Json): ResponseFormat | undefined {
  const mimeType = readOptionalString(config.responseMimeType, `${PATH}.responseMimeType`);
  if (mimeType !== 'application/json') return undefined;
  const jsonSchema = readOptionalObject(config.responseJsonSchema, `${PATH}.responseJsonSchema`);
  const schema = readOptionalObject(config.responseSchema, `${PATH}.responseSchema`);
  const converted = jsonSchema ?? (schema ? convertGeminiSchema(schema) : undefined);
  return converted
    ? { type: 'json_schema', json_schema: { name: 'response', schema: converted } }
    : { type: 'json_object' };
}

const EFFORT_BY_LEVEL: Record<string, NonNullable<ChatRequest['reasoning_effort']>> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};

/**
 * thinkingConfig (https://ai.google.dev/gemini-api/docs/thinking): a budget of 0 turns thinking off, a
 * positive one is a thinking budget, -1 (dynamic) leaves the model's default; Gemini 3's thinkingLevel is a
 * reasoning effort.
 */
function convertThinking(config: Json): Partial<ChatRequest> {
  const path = `${PATH}.thinkingConfig`;
  const thinking = readOptionalObject(config.thinkingConfig, path);
  if (!thinking) return {};
  readOptionalBoolean(thinking.includeThoughts, `${path}.includeThoughts`);
  const budget = readOptionalNumber(thinking.thinkingBudget, `${path}.thinkingBudget`, {
    minimum: -1,
    isInteger: true,
  });
  const level = readOptionalString(thinking.thinkingLevel, `${path}.thinkingLevel`)?.toUpperCase();
  if (level !== undefined && !(level in EFFORT_BY_LEVEL) && level !== 'THINKING_LEVEL_UNSPECIFIED')
    throw invalidField(`${path}.thinkingLevel`, thinking.thinkingLevel, 'MINIMAL, LOW, MEDIUM or HIGH');
  if (budget === 0) return { thinking: { type: 'disabled' } };
  if (budget !== undefined && budget > 0) return { thinking: { type: 'enabled', budget_tokens: budget } };
  const effort = level === undefined ? undefined : EFFORT_BY_LEVEL[level];
  return effort ? { reasoning_effort: effort } : {};
}

/** Drops the fields that were not given, so the canonical request holds only what the client asked for. */
function defined(fields: Partial<ChatRequest>): Partial<ChatRequest> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * generationConfig (https://ai.google.dev/api/generate-content#generationconfig) as the canonical sampling
 * and output options. Options with no canonical form (responseModalities, speechConfig, mediaResolution …)
 * reach a Gemini channel on the pass-through lane and are dropped by translators.
 */
export function convertGeminiGenerationConfig(value: unknown): Partial<ChatRequest> {
  const config = readOptionalObject(value, PATH);
  if (!config) return {};
  const stop = readOptionalList(config.stopSequences, `${PATH}.stopSequences`)?.map((sequence, index) =>
    readString(sequence, `${PATH}.stopSequences[${index}]`),
  );
  const logprobs = readOptionalBoolean(config.responseLogprobs, `${PATH}.responseLogprobs`);
  return defined({
    temperature: readOptionalNumber(config.temperature, `${PATH}.temperature`, { minimum: 0, maximum: 2 }),
    top_p: readOptionalNumber(config.topP, `${PATH}.topP`, { minimum: 0, maximum: 1 }),
    top_k: readOptionalNumber(config.topK, `${PATH}.topK`, { minimum: 1, isInteger: true }),
    n: readOptionalNumber(config.candidateCount, `${PATH}.candidateCount`, { minimum: 1, isInteger: true }),
    max_tokens: readOptionalNumber(config.maxOutputTokens, `${PATH}.maxOutputTokens`, {
      minimum: 1,
      isInteger: true,
    }),
    stop: stop?.length ? stop : undefined,
    seed: readOptionalNumber(config.seed, `${PATH}.seed`, { isInteger: true }),
    presence_penalty: readOptionalNumber(config.presencePenalty, `${PATH}.presencePenalty`),
    frequency_penalty: readOptionalNumber(config.frequencyPenalty, `${PATH}.frequencyPenalty`),
    logprobs: logprobs || undefined,
    top_logprobs: logprobs
      ? readOptionalNumber(config.logprobs, `${PATH}.logprobs`, { minimum: 0, isInteger: true })
      : undefined,
    response_format: convertResponseFormat(config),
    ...convertThinking(config),
  });
}
