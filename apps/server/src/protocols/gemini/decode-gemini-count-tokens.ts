import type { ChatRequest } from '../../canonical/chat';
import { decodeGeminiRequest } from './decode-gemini-request';
import { readOptionalObject, type Json } from './gemini-request-fields';

/**
 * A countTokens body (https://ai.google.dev/api/tokens#request-body): `contents` alone, or a whole
 * `generateContentRequest` whose system instruction and tools count too. Read as the chat it would be, so
 * a channel of another protocol's tokens are counted here as the settlement counts them.
 */
export function decodeGeminiCountTokensRequest(body: Json, model: string): ChatRequest {
  const whole = readOptionalObject(body.generateContentRequest, 'generateContentRequest');
  return decodeGeminiRequest(whole ?? { contents: body.contents }, { model, isStream: false });
}
