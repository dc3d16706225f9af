import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import type { BedrockConverseRequest } from './bedrock-converse-types';
import { BEDROCK } from './bedrock-converse-types';
import { findBedrockDefaultMaxTokens } from './bedrock-default-max-tokens';
import { findBedrockModelVendor } from './bedrock-model-ids';
import { convertToBedrockMessages } from './convert-to-bedrock-messages';
import { convertToBedrockToolConfig } from './convert-to-bedrock-tools';

/** Options that would change the answer's shape are refused; sampling hints Converse lacks (penalties, seed) are not. */
function refuseUnsupported(request: ChatRequest): void {
  if ((request.n ?? 1) > 1) throw new UnsupportedOptionError(BEDROCK, 'n > 1');
  if (request.logprobs) throw new UnsupportedOptionError(BEDROCK, 'logprobs');
  if (request.response_format?.type === 'json_object') {
    throw new UnsupportedOptionError(BEDROCK, 'response_format json_object', 'use json_schema with a schema');
  }
}

function convertInferenceConfig(
  request: ChatRequest,
  modelId: string,
): BedrockConverseRequest['inferenceConfig'] {
  const maxTokens =
    request.max_completion_tokens ?? request.max_tokens ?? findBedrockDefaultMaxTokens(request, modelId);
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  const stopSequences = stop?.filter((sequence) => sequence !== '');
  const config = {
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { topP: request.top_p } : {}),
    ...(stopSequences?.length ? { stopSequences } : {}),
  };
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * Claude's own request fields that Converse does not name (thinking, top_k, and the client's anthropic-beta
 * header as anthropic_beta, as AWS documents for interleaved thinking:
 * https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html) travel in
 * additionalModelRequestFields. They are refused for a model id that names another vendor; an ARN says
 * nothing, so Bedrock decides.
 */
function convertAdditionalFields(
  request: ChatRequest,
  modelId: string,
  clientHeaders: Readonly<Record<string, string>>,
): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  if (request.thinking?.type === 'enabled') fields.thinking = request.thinking;
  if (request.top_k !== undefined) fields.top_k = request.top_k;
  const betas = (clientHeaders['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter(Boolean);
  if (betas.length > 0) fields.anthropic_beta = betas;
  if (Object.keys(fields).length === 0) return undefined;
  const vendor = findBedrockModelVendor(modelId);
  if (vendor !== null && vendor !== 'anthropic') {
    const option = Object.keys(fields).join(' and ').replace('anthropic_beta', 'anthropic-beta');
    throw new UnsupportedOptionError(BEDROCK, option, `only for Claude models, not ${modelId}`);
  }
  return fields;
}

function convertOutputConfig(request: ChatRequest): BedrockConverseRequest['outputConfig'] {
  if (request.response_format?.type !== 'json_schema') return undefined;
  const { name, description, schema } = request.response_format.json_schema;
  const jsonSchema = {
    schema: JSON.stringify(schema ?? { type: 'object' }),
    name,
    ...(description ? { description } : {}),
  };
  return { textFormat: { type: 'json_schema', structure: { jsonSchema } } };
}

/** A canonical chat request → the Converse body for `modelId` (which travels in the URL, not here). */
export function convertToBedrockRequest(
  request: ChatRequest,
  modelId: string,
  clientHeaders: Readonly<Record<string, string>> = {},
): BedrockConverseRequest {
  refuseUnsupported(request);
  const { system, messages } = convertToBedrockMessages(request.messages);
  const inferenceConfig = convertInferenceConfig(request, modelId);
  const toolConfig = convertToBedrockToolConfig(request.tools, request.tool_choice, messages);
  const additionalModelRequestFields = convertAdditionalFields(request, modelId, clientHeaders);
  const outputConfig = convertOutputConfig(request);
  return {
    messages,
    ...(system.length > 0 ? { system } : {}),
    ...(inferenceConfig ? { inferenceConfig } : {}),
    ...(toolConfig ? { toolConfig } : {}),
    ...(additionalModelRequestFields ? { additionalModelRequestFields } : {}),
    ...(outputConfig ? { outputConfig } : {}),
  };
}
