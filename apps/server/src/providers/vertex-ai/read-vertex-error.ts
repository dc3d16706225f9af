import type { UpstreamErrorDetails } from '../../canonical/translation';
import { readAnthropicErrorObject } from '../anthropic/read-anthropic-error';
import { readGeminiError } from '../gemini/read-gemini-error';
import { isAnthropicShaped } from './read-vertex-response';

function parseOrNull(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * A Vertex AI error answer. Vertex itself answers Google's error object (`{error: {code, message, status}}`:
 * a refused token, a missing permission, a quota, an unknown model), for Claude as for Gemini; Claude's own
 * refusals through rawPredict keep Anthropic's shape (`{type: "error", error: {type, message}}`). Either is
 * read by its vendor's reader; a body that is neither (a proxy's HTML page) keeps its first characters.
 */
export function readVertexError(body: Buffer, status: number): UpstreamErrorDetails {
  const parsed = parseOrNull(body);
  const anthropic = isAnthropicShaped(parsed) ? readAnthropicErrorObject(parsed, status) : null;
  return anthropic ?? readGeminiError(body, status);
}
