import { collectChatChunks } from '../../canonical/collect-chat-chunks';
import type { ChatAnswer } from '../../canonical/translation';
import { createCozeStreamDecoder } from './coze-stream-decoder';

/**
 * A non-stream client's answer: Coze was asked to stream (its non-stream mode must be polled), so the
 * whole event stream is decoded and collected into one completion.
 */
export function readCozeResponse(body: Buffer): ChatAnswer {
  const decoder = createCozeStreamDecoder();
  const chunks = [...decoder.push(body), ...decoder.end()];
  return collectChatChunks(chunks, decoder.usage());
}
