import type { SseEvent, StreamReader, StreamReaderOptions, TokenUsage } from '../provider-types';
import { convertOpenAIUsage } from './convert-openai-usage';
import { extractCompletionText } from './openai-completion-text';

/** Raw chunks kept for counting before they are boiled down to their text: bounds memory per stream. */
const MAX_PENDING_CHARACTERS = 64 * 1024;

const NOTHING: readonly SseEvent[] = [];

function parseChunk(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Reads an OpenAI-format stream and forwards every chunk untouched. Chunks are parsed only when they carry
 * usage; the others are kept raw and read for their text only if the stream ends without usage, so the common
 * case (the upstream reports usage) costs one substring search per chunk. The usage-only chunk the relay asked
 * for on the client's behalf (`choices: []`) is removed unless the client asked for it too. `[DONE]` is not
 * forwarded: the client's protocol writes its own end.
 */
export function createOpenAIStreamReader(options: StreamReaderOptions): StreamReader {
  let usage: TokenUsage | null = null;
  let pending: string[] = [];
  let pendingCharacters = 0;
  const texts: string[] = [];
  // Most events are forwarded as they came: in one array, refilled for each (see StreamReader.readEvent).
  let single: SseEvent[] | null = null;
  const only = (event: SseEvent): readonly SseEvent[] => {
    if (single === null) single = [event];
    else single[0] = event;
    return single;
  };

  function boilDown(): void {
    for (const data of pending) texts.push(extractCompletionText(parseChunk(data)));
    pending = [];
    pendingCharacters = 0;
  }

  return {
    readEvent(event) {
      const { data } = event;
      if (data === '[DONE]') return NOTHING;
      if (data.includes('"usage"')) {
        const chunk = parseChunk(data);
        const found = convertOpenAIUsage(chunk?.usage);
        if (found) {
          usage = found;
          const isUsageOnly = Array.isArray(chunk?.choices) && chunk.choices.length === 0;
          if (isUsageOnly) return options.clientWantsUsage ? only(event) : NOTHING;
        }
      }
      pending.push(data);
      pendingCharacters += data.length;
      if (pendingCharacters > MAX_PENDING_CHARACTERS) boilDown();
      return only(event);
    },
    finish() {
      if (usage) return { usage, completionText: '' };
      boilDown();
      return { usage: null, completionText: texts.join('') };
    },
  };
}
