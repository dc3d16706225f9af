import type { ReadResponse, UpstreamErrorDetails } from '../provider-types';
import { convertOpenAIUsage } from './convert-openai-usage';
import { extractCompletionText } from './openai-completion-text';

function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return null;
  }
}

const WHITESPACE = /\s/;

/**
 * The `usage` object of an answer, parsed on its own: OpenAI puts it last, so it is searched from the end and
 * only its braces are parsed, not the whole answer (which may hold megabytes of embeddings or images).
 * A quoted "usage" inside a string is escaped (\"usage\") and never matches. Undefined when absent.
 */
export function findUsageObject(text: string): unknown {
  const at = text.lastIndexOf('"usage"');
  if (at < 0) return undefined;
  let start = at + 7;
  while (WHITESPACE.test(text[start] ?? '')) start += 1;
  if (text[start] !== ':') return undefined;
  start += 1;
  while (WHITESPACE.test(text[start] ?? '')) start += 1;
  if (text[start] !== '{') return undefined;
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      for (index += 1; index < text.length && text[index] !== '"'; index += 1)
        if (text[index] === '\\') index += 1;
    } else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return parseJson(text.slice(start, index + 1)) ?? undefined;
    }
  }
  return undefined;
}

/**
 * An OpenAI-format JSON answer: forwarded as it is, with its usage. The whole answer is parsed only when
 * the relay needs more than the usage (the text to count, the images to bill).
 */
export function readOpenAIResponse(body: Buffer): ReadResponse {
  const text = body.toString('utf8');
  let parsed: { value: unknown } | null = null;
  const answer = () => (parsed ??= { value: parseJson(text) }).value;
  const usage = convertOpenAIUsage(findUsageObject(text));
  return {
    body,
    usage,
    get answer() {
      return answer();
    },
    get completionText() {
      return extractCompletionText(answer());
    },
  };
}

/** A transcript: JSON (`{text, usage?}`) or plain text for the text, srt and vtt formats. */
export function readOpenAITranscript(body: Buffer, contentType: string): ReadResponse {
  const text = body.toString('utf8');
  if (!contentType.includes('json')) return { body, usage: null, completionText: text, answer: null };
  const answer = parseJson(text) as { text?: unknown; usage?: unknown } | null;
  return {
    body,
    usage: convertOpenAIUsage(answer?.usage),
    completionText: typeof answer?.text === 'string' ? answer.text : '',
    answer,
  };
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** `{"error": {message, type, code}}`, `{"error": "text"}`, `{"message": …}` or plain text. */
export function readOpenAIError(body: Buffer): UpstreamErrorDetails {
  const text = body.toString('utf8').trim();
  const parsed = parseJson(text) as Record<string, unknown> | null;
  const error = parsed?.error;
  if (typeof error === 'object' && error !== null) {
    const fields = error as Record<string, unknown>;
    return { message: asText(fields.message), type: asText(fields.type), code: asText(fields.code) };
  }
  if (typeof error === 'string') return { message: error, type: '', code: '' };
  if (parsed && typeof parsed.message === 'string') {
    return { message: parsed.message, type: asText(parsed.type), code: asText(parsed.code) };
  }
  return { message: text.slice(0, 500), type: '', code: '' };
}
