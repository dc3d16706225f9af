import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import { readAnthropicResponse } from '../anthropic/convert-anthropic-response';
import { convertGeminiResponse } from '../gemini/convert-gemini-response';

/**
 * Whether a parsed answer (or error) is Anthropic's: its messages and errors carry a top-level `type`
 * ("message", "error"), Google's answers and errors never do.
 */
export function isAnthropicShaped(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

/**
 * A 2xx JSON answer of Vertex AI: a Messages API message from Claude (rawPredict), else a
 * GenerateContentResponse from Gemini. The translator's answer side is not told which model it called, so
 * the answer's own shape says which it is.
 */
export function readVertexResponse(body: Buffer): ChatAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError('Vertex AI answered something that is not JSON');
  }
  return isAnthropicShaped(parsed) ? readAnthropicResponse(body) : convertGeminiResponse(parsed);
}
