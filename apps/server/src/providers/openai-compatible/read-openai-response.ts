import { UpstreamFormatError, kindFromStatus, type UpstreamErrorKind } from '../../canonical/translation';
import type { ReadResponse, TokenUsage, UpstreamErrorDetails } from '../provider-types';
import { findObjectAfterKey } from '../shared/find-object-after-key';
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

const isObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `usage` object of an answer, parsed on its own: OpenAI puts it last, so it is searched from the end and
 * only its braces are parsed, not the whole answer (which may hold megabytes of embeddings or images).
 * Undefined when absent.
 */
export function findUsageObject(text: string): unknown {
  return findObjectAfterKey(text, 'usage');
}

/** The last character that is not whitespace, cheaply: a cut answer rarely ends on its closing brace. */
function endsWithClosingBrace(text: string): boolean {
  let index = text.length - 1;
  while (index >= 0 && WHITESPACE.test(text[index])) index -= 1;
  return text[index] === '}';
}

/**
 * An OpenAI-format JSON answer: forwarded as it is, with its usage. The whole answer is parsed only when
 * the relay needs more than the usage (the text to count, the images to bill) — or when it reports no usage,
 * so that a cut answer (usage comes last) is caught before it is forwarded. Throws UpstreamFormatError for
 * an answer that is not a JSON object.
 */
export function readOpenAIResponse(body: Buffer): ReadResponse {
  const text = body.toString('utf8');
  const read = new OpenAIAnswer(body, text, convertOpenAIUsage(findUsageObject(text)));
  if (!endsWithClosingBrace(text) || (read.usage === null && !isObject(read.answer))) {
    throw new UpstreamFormatError('the upstream answer is not a whole JSON object (cut or malformed)');
  }
  return read;
}

/** The answer parsed on first read. A class, not an object literal with getters and closures per answer. */
class OpenAIAnswer implements ReadResponse {
  private parsed: { value: unknown } | null = null;

  constructor(
    public body: Buffer,
    private readonly text: string,
    public usage: TokenUsage | null,
  ) {}

  get answer(): unknown {
    return (this.parsed ??= { value: parseJson(this.text) }).value;
  }

  get completionText(): string {
    return extractCompletionText(this.answer);
  }
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

/** OpenAI's error codes and types (https://platform.openai.com/docs/guides/error-codes) as kinds. */
const KIND_OF_CODE: Readonly<Record<string, UpstreamErrorKind>> = {
  invalid_api_key: 'authentication',
  authentication_error: 'authentication',
  permission_error: 'permission',
  insufficient_quota: 'insufficient_quota',
  billing_hard_limit_reached: 'insufficient_quota',
  billing_not_active: 'insufficient_quota',
  rate_limit_exceeded: 'rate_limit',
  context_length_exceeded: 'context_length',
  model_not_found: 'not_found',
  server_error: 'server',
};

function kindOf(status: number, type: string, code: string): UpstreamErrorKind {
  return KIND_OF_CODE[code] ?? KIND_OF_CODE[type] ?? kindFromStatus(status);
}

/** `{"error": {message, type, code}}`, `{"error": "text"}`, `{"message": …}` or plain text. */
export function readOpenAIError(body: Buffer, status: number): UpstreamErrorDetails {
  const text = body.toString('utf8').trim();
  const parsed = parseJson(text) as Record<string, unknown> | null;
  const error = parsed?.error;
  let message = text.slice(0, 500);
  let type = '';
  let code = '';
  if (typeof error === 'object' && error !== null) {
    const fields = error as Record<string, unknown>;
    [message, type, code] = [asText(fields.message), asText(fields.type), asText(fields.code)];
  } else if (typeof error === 'string') {
    message = error;
  } else if (parsed && typeof parsed.message === 'string') {
    [message, type, code] = [parsed.message, asText(parsed.type), asText(parsed.code)];
  }
  return { message, type, code, kind: kindOf(status, type, code) };
}
