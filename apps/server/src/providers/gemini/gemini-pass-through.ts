import {
  UpstreamFormatError,
  type TokenUsage,
  type TranslatorChannel,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { convertGeminiUsage } from './convert-gemini-usage';
import { geminiApiEndpoint, type GeminiEndpoint } from './gemini-endpoint';
import type { GeminiGenerateContentResponse } from './gemini-wire-types';
import { createGeminiStreamUsageSniffer } from './read-gemini-usage';

/**
 * A Gemini client's own request, forwarded: the model lives in the URL, so the body goes byte for byte even
 * when the channel maps the model; only the URL and the key change.
 */
export function buildGeminiPassThroughRequest(
  channel: TranslatorChannel,
  rawBody: Buffer,
  upstreamModel: string,
  isStream: boolean,
  endpoint: GeminiEndpoint = geminiApiEndpoint,
): UpstreamHttpRequest {
  return {
    url: endpoint.buildUrl(channel, upstreamModel, isStream ? 'streamGenerateContent' : 'generateContent'),
    headers: endpoint.buildHeaders(channel),
    body: rawBody,
  };
}

/** The text of an answer's candidates (thoughts included: they are billed as output), for local counting. */
function candidatesText(answer: unknown): string {
  const candidates = (answer as GeminiGenerateContentResponse | null)?.candidates;
  if (!Array.isArray(candidates)) return '';
  return candidates
    .flatMap((candidate) => candidate?.content?.parts ?? [])
    .map((part) =>
      typeof part?.text === 'string'
        ? part.text
        : part?.functionCall
          ? JSON.stringify(part.functionCall)
          : '',
    )
    .join('');
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A generateContent answer forwarded as it is, with its usage read on the side. Throws UpstreamFormatError when
 * it is not a whole JSON object (a cut answer).
 */
export function readGeminiPassThroughResponse(body: Buffer) {
  const answer = parseOrNull(body.toString('utf8'));
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    throw new UpstreamFormatError('the Gemini answer is not a whole JSON object (cut or malformed)');
  return {
    body,
    usage: convertGeminiUsage((answer as GeminiGenerateContentResponse).usageMetadata),
    answer,
    get completionText() {
      return candidatesText(answer);
    },
  };
}

/**
 * Watches a forwarded `alt=sse` stream: every event goes to the client as it came; the usage is sniffed from
 * the events that carry it, and the text is kept only from events without usage (Gemini puts usageMetadata on
 * every event, so normally nothing is parsed), for counting when the stream never reported any.
 */
export function createGeminiPassThroughStreamReader() {
  const sniffer = createGeminiStreamUsageSniffer();
  let text = '';
  return {
    readEvent<Event extends { data: string }>(event: Event): Event[] {
      sniffer.read(event.data);
      if (!event.data.includes('"usageMetadata"')) text += candidatesText(parseOrNull(event.data));
      return [event];
    },
    finish(): { usage: TokenUsage | null; completionText: string } {
      return { usage: sniffer.usage(), completionText: text };
    },
  };
}
