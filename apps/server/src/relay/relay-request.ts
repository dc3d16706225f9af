import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { RelayError, relayErrors } from './relay-error';

/** A JSON relay body: parsed for the relay, and the client's bytes for the pass-through fast path. */
export interface RelayJsonBody {
  value: Record<string, unknown>;
  raw: Buffer;
}

/** A multipart relay body (audio uploads), kept as bytes and forwarded as they are. */
export interface RelayMultipartBody {
  raw: Buffer;
}

/**
 * How deep objects and arrays may nest in a relay body. JSON.parse takes any depth, but what reads the body
 * afterwards recurses (token counting, translating tool schemas, writing a body out again) and runs out of
 * stack a few thousand levels down; no real request comes near this.
 */
const MAX_NESTING = 512;

/** Whether objects and arrays nest more than `levels` deep under `value`; recursion never goes deeper. */
function isNestedDeeper(value: object, levels: number): boolean {
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (typeof item === 'object' && item !== null && isNestedDeeper(item, levels - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && isNestedDeeper(item, levels - 1)) return true;
  }
  return false;
}

/** The relay scope's JSON parser: an object body, or an OpenAI-style 400. */
export function parseRelayJson(raw: Buffer): RelayJsonBody {
  let value: unknown;
  try {
    value = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
  } catch {
    throw relayErrors.invalidRequest(
      'We could not parse the JSON body of your request: it must be valid JSON (Content-Type: application/json)',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw relayErrors.invalidRequest('The request body must be a JSON object');
  }
  if (isNestedDeeper(value, MAX_NESTING)) {
    throw relayErrors.invalidRequest(
      `The request body is nested too deeply: objects and arrays may nest at most ${MAX_NESTING} levels`,
    );
  }
  return { value: value as Record<string, unknown>, raw };
}

/**
 * The JSON routes refuse an upload before reading it: every JSON story reads the parsed object, which a
 * multipart body does not have. The scope's parsers take multipart for the audio uploads (and everything else
 * as JSON, for curl users who forget the header). A callback hook: an async one costs every relay request a
 * promise and a microtask.
 */
export function refuseMultipartBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: RequestPayload,
  done: (error: RelayError | null, payload?: RequestPayload) => void,
): void {
  if (/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    done(
      new RelayError(
        415,
        'This endpoint takes a JSON body (Content-Type: application/json), not multipart/form-data',
        'invalid_request_error',
        'unsupported_media_type',
      ),
    );
    return;
  }
  done(null, payload);
}

export function requireModel(body: Record<string, unknown>): string {
  const model = body.model;
  if (typeof model !== 'string' || model.trim() === '') {
    throw relayErrors.invalidRequest('You must provide a model parameter', 'model');
  }
  return model.trim();
}

/** A whole number ≥ 1 under `name`, null when absent; anything else is the client's mistake. */
export function readPositiveInteger(body: Record<string, unknown>, name: string): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw relayErrors.invalidRequest(`${name} must be a whole number of at least 1`, name);
  }
  return value;
}

export function readOptionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}
