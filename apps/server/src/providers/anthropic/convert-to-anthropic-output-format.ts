import type { ChatRequest } from '../../canonical/chat';
import type { AnthropicModelTraits } from './anthropic-model-traits';
import type { AnthropicOutputConfig, AnthropicTextBlockParam } from './anthropic-wire-types';

/**
 * Anthropic has no JSON mode without a schema, and models before Claude 4.5 have no structured outputs; such
 * requests get this instruction at the end of the system prompt. It asks, it does not guarantee.
 */
export const JSON_OBJECT_INSTRUCTION =
  'Answer with one valid JSON object and nothing else: no text before or after it, no code fences.';

/**
 * response_format: a JSON schema becomes Anthropic's structured output (output_config.format, on the Claude 4.5
 * models and later: https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs); on older models
 * the schema goes into the instruction. json_object, or a json_schema without a schema, becomes the instruction.
 * Instructions are added to `system`.
 */
export function convertToAnthropicOutputFormat(
  format: ChatRequest['response_format'],
  traits: AnthropicModelTraits,
  system: AnthropicTextBlockParam[],
): AnthropicOutputConfig['format'] {
  if (!format || format.type === 'text') return undefined;
  const schema = format.type === 'json_schema' ? format.json_schema.schema : undefined;
  if (schema && traits.hasStructuredOutputs) return { type: 'json_schema', schema };
  const text = schema
    ? `${JSON_OBJECT_INSTRUCTION} It follows this JSON Schema:\n${JSON.stringify(schema)}`
    : JSON_OBJECT_INSTRUCTION;
  system.push({ type: 'text', text });
  return undefined;
}
