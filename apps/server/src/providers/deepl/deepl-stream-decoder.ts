import type { ChatChunk } from '../../canonical/chat';
import { completionToChunks } from '../../canonical/completion-text';
import type { ChatStreamDecoder, TokenUsage } from '../../canonical/translation';
import { readDeepLResponse } from './convert-deepl-response';

/**
 * DeepL does not stream: a stream client gets the whole translation as one content chunk, then the stop and
 * the usage, once DeepL's JSON answer has arrived.
 */
export function createDeepLStreamDecoder(): ChatStreamDecoder {
  const pieces: Buffer[] = [];
  let usage: TokenUsage | null = null;
  return {
    push(bytes) {
      pieces.push(bytes);
      return [];
    },
    end(): ChatChunk[] {
      const answer = readDeepLResponse(Buffer.concat(pieces));
      usage = answer.usage;
      const [whole, ...rest] = completionToChunks(answer.completion);
      const { finish_reason: finishReason, ...choice } = whole.choices[0];
      // The text first, then the stop on a chunk of its own, as streaming vendors send them.
      return [
        { ...whole, choices: [{ ...choice, finish_reason: null }] },
        { ...whole, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] },
        ...rest,
      ];
    },
    usage: () => usage,
  };
}
