import type { ChatChunk } from '../../canonical/chat';
import type { ChatStreamDecoder } from '../../canonical/translation';
import { createOpenAIChatStreamDecoder } from '../openai-compatible/openai-chat-stream-decoder';
import { createSparkFrameDecoder } from './spark-frame-decoder';

/**
 * A Spark channel's stream, whichever API served it: the WebSocket's answer frames (one JSON object per line,
 * starting with `{`) or the HTTP API's OpenAI-style server-sent events (starting with `data:`). The first
 * byte that is not white space decides; nothing is buffered beyond it.
 */
export function createSparkStreamDecoder(): ChatStreamDecoder {
  let decoder: ChatStreamDecoder | null = null;
  const held: Buffer[] = [];

  const choose = (bytes: Buffer): ChatStreamDecoder | null => {
    const first = bytes.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
    if (first === undefined) return null;
    return first === 0x7b ? createSparkFrameDecoder() : createOpenAIChatStreamDecoder();
  };

  return {
    push(bytes): ChatChunk[] {
      if (!decoder) {
        decoder = choose(bytes);
        if (!decoder) {
          held.push(bytes);
          return [];
        }
        return decoder.push(Buffer.concat([...held, bytes]));
      }
      return decoder.push(bytes);
    },
    end: () => (decoder ?? createSparkFrameDecoder()).end(),
    usage: () => decoder?.usage() ?? null,
  };
}
