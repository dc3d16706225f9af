import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError, type ChatStreamDecoder } from '../../canonical/translation';
import { createAnthropicStreamDecoder } from '../anthropic/anthropic-stream-decoder';
import { createGeminiStreamDecoder } from '../gemini/gemini-stream-decoder';
import { isAnthropicShaped } from './read-vertex-response';

const EVENT_END = /\r?\n\r?\n|\r\r/;
const LINE_END = /\r?\n|\r/;

/** The lines of the first event with an `event:` or `data:` line (comments are skipped), or null. */
function firstEventLines(blocks: string[]): string[] | null {
  for (const block of blocks) {
    const lines = block.split(LINE_END);
    if (lines.some((line) => line.startsWith('event:') || line.startsWith('data:'))) return lines;
  }
  return null;
}

/**
 * Whether a stream is Anthropic's, from its first event: Anthropic names every event (`event: message_start`)
 * and puts its type in the data; Gemini's events are `data:` lines of GenerateContentResponse only.
 */
function isAnthropicStream(lines: string[]): boolean {
  if (lines.some((line) => line.startsWith('event:'))) return true;
  const data = lines
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  try {
    return isAnthropicShaped(JSON.parse(data));
  } catch {
    return false;
  }
}

/**
 * Decodes a Vertex AI stream: Claude's (streamRawPredict, Anthropic's events) or Gemini's
 * (streamGenerateContent?alt=sse). The translator's answer side is not told which model it called, so the
 * first event says which stream it is: the bytes are held until that event is complete, then handed, with
 * everything after, to that vendor's decoder.
 */
export function createVertexStreamDecoder(): ChatStreamDecoder {
  let decoder: ChatStreamDecoder | null = null;
  const held: Buffer[] = [];

  function handOver(lines: string[]): { chosen: ChatStreamDecoder; chunks: ChatChunk[] } {
    const chosen = isAnthropicStream(lines) ? createAnthropicStreamDecoder() : createGeminiStreamDecoder();
    decoder = chosen;
    return { chosen, chunks: chosen.push(Buffer.concat(held.splice(0))) };
  }

  return {
    push(bytes: Buffer): ChatChunk[] {
      if (decoder) return decoder.push(bytes);
      held.push(bytes);
      // The last block may be incomplete; the ones before it are whole events.
      const blocks = Buffer.concat(held).toString('utf8').split(EVENT_END).slice(0, -1);
      const lines = firstEventLines(blocks);
      return lines ? handOver(lines).chunks : [];
    },
    end(): ChatChunk[] {
      if (!decoder) {
        const lines = firstEventLines(Buffer.concat(held).toString('utf8').split(EVENT_END));
        if (!lines) throw new UpstreamFormatError('Vertex AI ended the stream without an event');
        const { chosen, chunks } = handOver(lines);
        return [...chunks, ...chosen.end()];
      }
      return decoder.end();
    },
    usage: () => decoder?.usage() ?? null,
  };
}
