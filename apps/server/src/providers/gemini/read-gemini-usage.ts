import type { TokenUsage } from '../../canonical/translation';
import { findObjectAfterKey } from '../shared/find-object-after-key';
import { convertGeminiUsage } from './convert-gemini-usage';

const KEY = '"usageMetadata"';

/**
 * The billed usage of a Gemini answer forwarded as it is (the pass-through lane for Gemini clients): a
 * generateContent body, or the JSON array streamGenerateContent answers without alt=sse, whose last
 * usageMetadata is the final one. Null when there is none.
 */
export function readGeminiUsage(body: Buffer | string): TokenUsage | null {
  return convertGeminiUsage(
    findObjectAfterKey(typeof body === 'string' ? body : body.toString('utf8'), 'usageMetadata'),
  );
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
