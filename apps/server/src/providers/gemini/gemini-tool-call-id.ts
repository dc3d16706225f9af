/**
 * Gemini attaches a thought signature to the first function call of a step, and Gemini 3 refuses the next turn
 * with 400 when that call comes back without it (https://ai.google.dev/gemini-api/docs/thought-signatures).
 * OpenAI-style clients keep nothing of a tool call but its id, name and arguments, so the signature rides in the
 * id: `<id>__thought__<signature as base64url>`. base64url keeps the id within [A-Za-z0-9_-], which every
 * vendor's tool ids accept (Anthropic's are the strictest), so the id survives a detour through another channel.
 */
const MARKER = '__thought__';

/** The canonical tool call id of a Gemini function call. */
export function encodeGeminiToolCallId(id: string, thoughtSignature?: string): string {
  if (!thoughtSignature) return id;
  const base64url = thoughtSignature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${id}${MARKER}${base64url}`;
}

/** The Gemini id and thought signature (standard base64, padded) inside a canonical tool call id. */
export function decodeGeminiToolCallId(toolCallId: string): { id: string; thoughtSignature?: string } {
  const at = toolCallId.indexOf(MARKER);
  if (at < 0) return { id: toolCallId };
  const base64url = toolCallId.slice(at + MARKER.length);
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return {
    id: toolCallId.slice(0, at),
    thoughtSignature: base64 + '='.repeat((4 - (base64.length % 4)) % 4),
  };
}
