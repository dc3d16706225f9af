import type { ChatChunk } from '../../canonical/chat';
import { completionToChunks } from '../../canonical/completion-text';
import type { ChatStreamDecoder, TokenUsage } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { incompleteStreamError } from '../shared/incomplete-stream-error';
import { JsonOrEventBody } from '../shared/json-or-event-body';
import { convertOpenAIUsage } from './convert-openai-usage';
import { readOpenAIChatAnswer, readOpenAIChatChunk } from './convert-openai-response';

/**
 * An OpenAI-format chat stream as canonical chunks, with the usage of whichever chunk carries it (usually
 * the last). Some OpenAI-compatible servers ignore `stream: true` and answer one JSON object: a body that
 * starts with `{` is read whole at its end and becomes the chunks of that answer.
 */
export function createOpenAIChatStreamDecoder(): ChatStreamDecoder {
  const splitter = new SseEventSplitter();
  let usage: TokenUsage | null = null;
  let isEmpty = true;
  const body = new JsonOrEventBody();

  function read(payloads: string[]): ChatChunk[] {
    const chunks: ChatChunk[] = [];
    for (const data of payloads) {
      if (data === '[DONE]') continue;
      isEmpty = false;
      const chunk = readOpenAIChatChunk(data);
      if (chunk.usage) usage = convertOpenAIUsage(chunk.usage) ?? usage;
      chunks.push(chunk);
    }
    return chunks;
  }

  return {
    push: (bytes) => (body.holdJson(bytes) ? [] : read(splitter.push(bytes))),
    end() {
      const json = body.json();
      if (!json) {
        const chunks = read(splitter.end());
        // Not one chunk (an empty body, a proxy's HTML page): a bad answer, not an empty success.
        if (isEmpty) throw incompleteStreamError('OpenAI', false, '[DONE]');
        return chunks;
      }
      const answer = readOpenAIChatAnswer(json);
      usage = answer.usage;
      return completionToChunks(answer.completion);
    },
    usage: () => usage,
  };
}
