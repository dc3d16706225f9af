import type { FinishReason } from '../../canonical/chat';
import type { GeminiFinishReason } from './gemini-wire-types';

/**
 * Gemini's finishReason (https://ai.google.dev/api/generate-content#FinishReason) as OpenAI's finish_reason.
 * - A candidate with a function call finished to call it: tool_calls, whatever Gemini said (it says STOP).
 * - Output stopped by a policy — safety, recitation, blocklist, prohibited content, personal data, and their
 *   image variants — is content_filter.
 * - MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL and TOO_MANY_TOOL_CALLS carry no call a client could run:
 *   stop, with whatever text came. Saying tool_calls would send clients looking for calls that are not there.
 * - LANGUAGE, OTHER and anything newer: stop.
 * Null while the candidate is still being generated (stream events before the last).
 */
export function mapGeminiFinishReason(
  reason: GeminiFinishReason | undefined,
  hasFunctionCalls: boolean,
): FinishReason | null {
  if (!reason) return null;
  if (hasFunctionCalls) return 'tool_calls';
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    default:
      return 'stop';
  }
}
