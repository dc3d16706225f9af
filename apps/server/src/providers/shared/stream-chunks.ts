import type { ChatChunk, ChatDelta, ChatUsage, FinishReason } from '../../canonical/chat';

/** What every chunk of one streamed answer repeats: the completion id, its creation time and the model. */
export interface ChunkHead {
  id: string;
  created: number;
  model: string;
}

/** A canonical chunk of the one choice a vendor stream has (index 0): this delta and, at the end, the finish reason. */
export function deltaChunk(
  head: ChunkHead,
  delta: ChatDelta,
  finishReason: FinishReason | null = null,
): ChatChunk {
  return {
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** The usage-only chunk after the finish reason (`choices: []`, as OpenAI sends it when asked). */
export function usageChunk(head: ChunkHead, usage: ChatUsage): ChatChunk {
  return { ...deltaChunk(head, {}), choices: [], usage };
}

/** The last chunks of a stream: the finish reason, then the usage-only chunk when the usage is known. */
export function finishChunks(
  head: ChunkHead,
  finishReason: FinishReason,
  usage: ChatUsage | null,
): ChatChunk[] {
  const chunks = [deltaChunk(head, {}, finishReason)];
  if (usage) chunks.push(usageChunk(head, usage));
  return chunks;
}
