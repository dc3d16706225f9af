import type { ChatChunk, ChatCompletion } from '../../canonical/chat';
import { UpstreamFormatError, type ChatAnswer } from '../../canonical/translation';
import { convertOpenAIUsage } from './convert-openai-usage';

function parseObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UpstreamFormatError(`the upstream sent ${what} that is not JSON (cut or malformed)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UpstreamFormatError(`the upstream sent ${what} that is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * An OpenAI-format chat answer as the canonical completion. Its fields are OpenAI's own, so they are taken as
 * they are once the shape is checked (an object with a choices array).
 */
export function readOpenAIChatAnswer(body: Buffer): ChatAnswer {
  const answer = parseObject(body.toString('utf8'), 'an answer');
  if (!Array.isArray(answer.choices)) {
    throw new UpstreamFormatError('the upstream answer has no choices');
  }
  return {
    completion: answer as unknown as ChatCompletion,
    usage: convertOpenAIUsage(answer.usage),
  };
}

/** One `data:` payload of an OpenAI-format stream as a canonical chunk. */
export function readOpenAIChatChunk(data: string): ChatChunk {
  const chunk = parseObject(data, 'a stream chunk');
  if (!Array.isArray(chunk.choices)) {
    throw new UpstreamFormatError('the upstream sent a stream chunk without choices');
  }
  return chunk as unknown as ChatChunk;
}
