import type { TokenUsage } from '../../canonical/translation';
import { convertAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage';

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The billed usage of an Anthropic JSON answer forwarded as it came (the pass-through lane), or null when it
 * has none.
 */
export function readAnthropicUsage(body: Buffer): TokenUsage | null {
  return convertAnthropicUsage(parseObject(body.toString('utf8'))?.usage);
}

export interface AnthropicUsageSniffer {
  /** one SSE `data:` payload of the stream, in order, with its `event:` name when the splitter kept it */
  read(data: string, eventName?: string | null): void;
  /** the usage reported so far, or null */
  usage(): TokenUsage | null;
}

const USAGE_EVENTS = new Set(['message_start', 'message_delta']);

const mayCarryUsage = (data: string) => data.includes('"message_start"') || data.includes('"message_delta"');

/**
 * Reads the usage of an Anthropic stream forwarded as it came. Only message_start (input counts) and
 * message_delta (cumulative counts) carry usage, so every other event costs a look at its `event:` name (or a
 * substring search of its data) and is never parsed. A quoted event name inside generated text is escaped
 * (`\"message_start\"`), so it does not match.
 */
export function createAnthropicUsageSniffer(): AnthropicUsageSniffer {
  let rawUsage: Record<string, unknown> | null = null;
  return {
    read(data, eventName) {
      if (eventName ? !USAGE_EVENTS.has(eventName) : !mayCarryUsage(data)) return;
      const event = parseObject(data);
      if (event?.type === 'message_start') {
        const message = event.message as { usage?: unknown } | undefined;
        rawUsage = mergeAnthropicUsage(null, message?.usage);
      } else if (event?.type === 'message_delta') {
        rawUsage = mergeAnthropicUsage(rawUsage, event.usage);
      }
    },
    usage: () => convertAnthropicUsage(rawUsage),
  };
}
