import { createHash } from 'node:crypto';
import { decodeGeminiToolCallId } from '../gemini/gemini-tool-call-id';

/** What a vendor accepts as the id of a tool call that comes back to it in the conversation. */
export interface ToolCallIdRule {
  /** the longest id it takes */
  maxLength: number;
  /** what an id must look like, when the vendor says more than a length */
  pattern?: RegExp;
}

/**
 * OpenAI has refused chat tool call ids over 40 characters ("string too long … maximum length 40"); most
 * OpenAI-compatible vendors take what OpenAI takes.
 */
export const OPENAI_TOOL_CALL_IDS: ToolCallIdRule = { maxLength: 40 };

/**
 * A tool call id of the conversation as the vendor will take it. The ids come from whichever vendor made the
 * calls (the client's earlier turns, another channel, a Gemini thought signature riding in the id), and a
 * vendor stricter than that one refuses the whole request. Gemini's signature is of no use to any other vendor
 * and is dropped; an id that still does not fit becomes a digest of itself (hexadecimal, as long as the vendor
 * allows), so the assistant's call and the tool's result, which carry the same id, still carry the same one.
 */
export function fitToolCallId(id: string, rule: ToolCallIdRule): string {
  const plain = decodeGeminiToolCallId(id).id;
  if (plain.length <= rule.maxLength && (!rule.pattern || rule.pattern.test(plain))) return plain;
  return createHash('sha256').update(plain).digest('hex').slice(0, rule.maxLength);
}
