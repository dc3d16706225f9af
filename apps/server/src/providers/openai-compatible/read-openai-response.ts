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

/** An OpenAI-format JSON answer: forwarded as it is, with its usage (the text is only read when asked). */
export function readOpenAIResponse(body: Buffer): ReadResponse {
  const answer = parseJson(body);
  const usage = convertOpenAIUsage((answer as { usage?: unknown } | null)?.usage);
  return {
    body,
    usage,
    answer,
    get completionText() {
      return extractCompletionText(answer);
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
