import type { ChatRequest, JsonSchema } from '../../canonical/chat';
import { OPENAI_ONLY_SAMPLING_FIELDS } from '../../canonical/chat';
import {
  fieldRequired,
  invalidField,
  isJsonObject,
  readOptionalBoolean,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  requireArray,
  requireObject,
  requireString,
  type Json,
} from './anthropic-request-fields';
import { convertAnthropicMessages, convertAnthropicSystem } from './convert-anthropic-messages';
import { convertAnthropicToolChoice, convertAnthropicTools } from './convert-anthropic-tools';

/** The Messages fields read here; every other field of the body is kept on the canonical request as it came. */
const MESSAGES_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'thinking',
  'tools',
  'tool_choice',
  'output_config',
]);

/**
 * Canonical field names an Anthropic body might carry with another meaning (or by mistake): never copied
 * as unknown fields, so a translator reads only what was decoded into them.
 */
const CANONICAL_FIELDS = new Set([
  'stream_options',
  'max_completion_tokens',
  ...OPENAI_ONLY_SAMPLING_FIELDS,
  'user',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
]);

/** Extended thinking (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking). */
function convertThinking(value: unknown): Pick<ChatRequest, 'thinking'> {
  if (value === undefined || value === null) return {};
  const thinking = requireObject(value, 'thinking');
  switch (thinking.type) {
    case 'enabled': {
      const budget = readOptionalInteger(thinking.budget_tokens, 'thinking.budget_tokens', 1024);
      if (budget === undefined) throw fieldRequired('thinking.budget_tokens');
      return { thinking: { type: 'enabled', budget_tokens: budget } };
    }
    case 'disabled':
      return { thinking: { type: 'disabled' } };
    default:
      // 'adaptive' has no budget: the model decides, guided by output_config.effort (read below). A type
      // newer than this gateway is Anthropic's to judge on the pass-through lane.
      requireString(thinking.type, 'thinking.type');
      return {};
  }
}

const EFFORTS: Record<string, ChatRequest['reasoning_effort']> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/**
 * output_config: effort as OpenAI's reasoning_effort (Anthropic's xhigh and max are above OpenAI's scale), a
 * JSON schema format as a json_schema response format (structured outputs).
 */
function convertOutputConfig(value: unknown): Pick<ChatRequest, 'reasoning_effort' | 'response_format'> {
  if (value === undefined || value === null) return {};
  const config = requireObject(value, 'output_config');
  const effort = readOptionalString(config.effort, 'output_config.effort');
  const format = config.format;
  const schema = isJsonObject(format) && format.type === 'json_schema' ? format.schema : undefined;
  return {
    ...(effort !== undefined && EFFORTS[effort] ? { reasoning_effort: EFFORTS[effort] } : {}),
    ...(isJsonObject(schema)
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'response', schema: schema as JsonSchema },
          },
        }
      : {}),
  };
}

function convertStopSequences(value: unknown): Pick<ChatRequest, 'stop'> {
  if (value === undefined || value === null) return {};
  const sequences = requireArray(value, 'stop_sequences');
  sequences.forEach((sequence, index) => requireString(sequence, `stop_sequences.${index}`));
  return sequences.length > 0 ? { stop: sequences as string[] } : {};
}

function readUser(metadata: unknown): Pick<ChatRequest, 'user'> {
  if (metadata === undefined || metadata === null) return {};
  const fields = requireObject(metadata, 'metadata');
  const user = readOptionalString(fields.user_id, 'metadata.user_id');
  return user ? { user } : {};
}

/** Fields this gateway does not read (context_management, container, mcp_servers, service_tier, betas …). */
function copyUnknownFields(body: Json, request: ChatRequest): void {
  for (const field in body) {
    if (!MESSAGES_FIELDS.has(field) && !CANONICAL_FIELDS.has(field)) request[field] = body[field];
  }
}

function decode(body: Json, isCount: boolean): ChatRequest {
  const model = requireString(body.model, 'model');
  if (model.trim() === '') throw invalidField('model', 'String should have at least 1 character');
  const maxTokens = readOptionalInteger(body.max_tokens, 'max_tokens', 1);
  if (maxTokens === undefined && !isCount) throw fieldRequired('max_tokens');
  const system = convertAnthropicSystem(body.system);
  const messages = convertAnthropicMessages(body.messages);
  const tools = convertAnthropicTools(body.tools);
  const temperature = readOptionalNumber(body.temperature, 'temperature', 0, 1);
  const topP = readOptionalNumber(body.top_p, 'top_p', 0, 1);
  const topK = readOptionalInteger(body.top_k, 'top_k', 0);
  const stream = readOptionalBoolean(body.stream, 'stream');
  const request: ChatRequest = {
    model,
    messages: system.length > 0 ? [...system, ...messages] : messages,
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(stream !== undefined ? { stream } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { top_p: topP } : {}),
    ...(topK !== undefined ? { top_k: topK } : {}),
    ...convertStopSequences(body.stop_sequences),
    ...(tools && tools.length > 0 ? { tools } : {}),
    ...convertAnthropicToolChoice(body.tool_choice),
    ...convertThinking(body.thinking),
    ...convertOutputConfig(body.output_config),
    ...readUser(body.metadata),
  };
  copyUnknownFields(body, request);
  return request;
}

/**
 * An Anthropic Messages body (https://docs.anthropic.com/en/api/messages) checked and read as a canonical
 * request. Throws a 400 naming the field, in Anthropic's words. max_tokens is required, as Anthropic requires
 * it. Fields it does not know are never an error: Claude Code sends context_management, container,
 * mcp_servers, output_config … They stay on the request (an Anthropic channel gets the client's own body
 * anyway) and translators to other vendors drop them.
 */
export function decodeAnthropicRequest(body: Json): ChatRequest {
  return decode(body, false);
}

/**
 * The body of `POST /v1/messages/count_tokens` (https://docs.anthropic.com/en/api/messages-count-tokens):
 * a Messages body without max_tokens.
 */
export function decodeAnthropicCountRequest(body: Json): ChatRequest {
  return decode(body, true);
}
