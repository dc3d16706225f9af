import {
  UpstreamFormatError,
  type TokenUsage,
  type TranslatorChannel,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { AnthropicReportedError } from './anthropic-reported-error';
import { convertAnthropicUsage } from './convert-anthropic-usage';
import { ANTHROPIC_VERSION, buildAnthropicUrl } from './convert-to-anthropic-request';
import { readAnthropicErrorObject } from './read-anthropic-error';
import { createAnthropicUsageSniffer } from './read-anthropic-usage';

/** An Anthropic client's own request, as the pass-through lane forwards it. */
export interface AnthropicPassThroughInput {
  channel: TranslatorChannel;
  /** the client's bytes */
  rawBody: Buffer;
  /** the same body, parsed */
  body: Record<string, unknown>;
  upstreamModel: string;
  isModelMapped: boolean;
  /** the client's protocol headers, lower-case (anthropic-version, anthropic-beta) */
  clientHeaders: Readonly<Record<string, string>>;
}

/**
 * The client's body goes byte for byte (a cache_control mark, a server tool, a field newer than this gateway
 * reach Anthropic as sent); only a mapped model is rewritten. The channel's key replaces the client's, and the
 * client's anthropic-version and anthropic-beta go along, since the body is written for them.
 * `path` is /v1/messages or /v1/messages/count_tokens.
 */
export function buildAnthropicPassThroughRequest(
  input: AnthropicPassThroughInput,
  path: '/v1/messages' | '/v1/messages/count_tokens' = '/v1/messages',
): UpstreamHttpRequest {
  const { channel, clientHeaders } = input;
  const beta = clientHeaders['anthropic-beta'];
  const messagesUrl = buildAnthropicUrl(channel.baseUrl);
  return {
    url: path === '/v1/messages' ? messagesUrl : `${messagesUrl}/count_tokens`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': channel.key,
      'anthropic-version': clientHeaders['anthropic-version'] || ANTHROPIC_VERSION,
      ...(beta ? { 'anthropic-beta': beta } : {}),
    },
    body: input.isModelMapped ? JSON.stringify({ ...input.body, model: input.upstreamModel }) : input.rawBody,
  };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The generated text and tool inputs of an answer, for counting when it reports no usage. */
function contentText(answer: unknown): string {
  const content = (answer as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: unknown; text?: unknown; thinking?: unknown; input?: unknown }) => {
      if (typeof block?.text === 'string') return block.text;
      if (typeof block?.thinking === 'string') return block.thinking;
      return block?.type === 'tool_use' ? JSON.stringify(block.input ?? {}) : '';
    })
    .join('');
}

/**
 * A Messages answer forwarded as it is, with its usage read on the side. Throws UpstreamFormatError when it is
 * not a whole JSON object (a cut answer), AnthropicReportedError when it is an error object.
 */
export function readAnthropicPassThroughResponse(body: Buffer) {
  const answer = parseOrNull(body.toString('utf8'));
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw new UpstreamFormatError('the Anthropic answer is not a whole JSON object (cut or malformed)');
  }
  const reported = (answer as { type?: unknown }).type === 'error' ? readAnthropicErrorObject(answer) : null;
  if (reported) throw new AnthropicReportedError(reported);
  return {
    body,
    usage: convertAnthropicUsage((answer as { usage?: unknown }).usage),
    answer,
    get completionText() {
      return contentText(answer);
    },
  };
}

/** An SSE event as the pass-through lane sees it: its data, and its `event:` name when known. */
export interface AnthropicPassThroughEvent {
  event?: string | null;
  data: string;
}

/**
 * Forwards a Messages stream event by event, untouched, reading its usage on the side. Anthropic reports usage
 * in message_start, so text is kept for counting only when a stream (from a proxy that strips usage) has none.
 */
export function createAnthropicPassThroughStreamReader() {
  const sniffer = createAnthropicUsageSniffer();
  const texts: string[] = [];
  return {
    readEvent<Event extends AnthropicPassThroughEvent>(event: Event): Event[] {
      sniffer.read(event.data, event.event);
      if (sniffer.usage() === null && event.data.includes('"text_delta"')) {
        const text = (parseOrNull(event.data) as { delta?: { text?: unknown } } | null)?.delta?.text;
        if (typeof text === 'string') texts.push(text);
      }
      return [event];
    },
    finish(): { usage: TokenUsage | null; completionText: string } {
      const usage = sniffer.usage();
      return { usage, completionText: usage ? '' : texts.join('') };
    },
  };
}
