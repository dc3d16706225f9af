import type { TokenUsage } from '../../canonical/translation';
import { convertGeminiUsage } from './convert-gemini-usage';

const KEY = '"usageMetadata"';
const WHITESPACE = /\s/;

/**
 * The object after the last `"usageMetadata":` of a JSON text, parsed alone: the rest of the answer (text,
 * inline images) is never parsed. An escaped key inside a string (\"usageMetadata\") does not match.
 */
function findUsageMetadata(text: string): unknown {
  const at = text.lastIndexOf(KEY);
  if (at < 0) return undefined;
  let start = at + KEY.length;
  while (WHITESPACE.test(text[start] ?? '')) start += 1;
  if (text[start] !== ':') return undefined;
  start += 1;
  while (WHITESPACE.test(text[start] ?? '')) start += 1;
  if (text[start] !== '{') return undefined;
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      for (index += 1; index < text.length && text[index] !== '"'; index += 1)
        if (text[index] === '\\') index += 1;
    } else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) {
        try {
          return JSON.parse(text.slice(start, index + 1));
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/**
 * The billed usage of a Gemini answer forwarded as it is (the pass-through lane for Gemini clients): a
 * generateContent body, or the JSON array streamGenerateContent answers without alt=sse, whose last
 * usageMetadata is the final one. Null when there is none.
 */
export function readGeminiUsage(body: Buffer | string): TokenUsage | null {
  return convertGeminiUsage(findUsageMetadata(typeof body === 'string' ? body : body.toString('utf8')));
}

export interface GeminiStreamUsageSniffer {
  /** one `data:` payload of the stream, as the SSE splitter cut it */
  read(data: string): void;
  /** the last usage the stream reported, or null */
  usage(): TokenUsage | null;
}

/**
 * Watches a forwarded `alt=sse` stream for its usage. Events without the key are skipped with one substring
 * search; only the usageMetadata object of the others is parsed.
 */
export function createGeminiStreamUsageSniffer(): GeminiStreamUsageSniffer {
  let usage: TokenUsage | null = null;
  return {
    read(data) {
      if (!data.includes(KEY)) return;
      usage = readGeminiUsage(data) ?? usage;
    },
    usage: () => usage,
  };
}
