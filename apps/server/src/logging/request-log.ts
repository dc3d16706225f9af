import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/** The message of every request line; the pretty format recognises request lines by it. */
export const REQUEST_LINE_MESSAGE = 'request completed';

/** The fields a request line adds to the log's own (time, level, reqId); the pretty format hides them. */
export const REQUEST_LINE_FIELDS = [
  'method',
  'path',
  'status',
  'durationMs',
  'ip',
  'model',
  'keyName',
  'user',
];

/** The longest model name written: the client chooses it, the log should not grow with it. */
const MAX_MODEL_LENGTH = 100;

export interface RequestLineFields {
  method: string;
  /** without the query string, which may carry codes and tokens */
  path: string;
  status: number;
  durationMs: number;
  ip: string;
  /** relay: the model the client asked for */
  model: string | undefined;
  /** relay: the API key's name, never the key */
  keyName: string | undefined;
  /** management API: the signed-in user, when the route looked them up */
  user: string | undefined;
}

export type RequestLineLevel = 'info' | 'debug';

type FinishedRequest = Pick<FastifyRequest, 'method' | 'url' | 'ip' | 'body' | 'relayCaller' | 'currentUser'>;
type FinishedReply = Pick<FastifyReply, 'statusCode' | 'elapsedTime'>;

/** /v1/… (and the /v1beta of Gemini clients) and the legacy /dashboard/billing/… */
function isRelayPath(url: string): boolean {
  return url.startsWith('/v1') || url.startsWith('/dashboard/');
}

function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url === '/api';
}

/** Relay and management API requests at info; the console's pages and files (dozens per visit) at debug. */
export function requestLineLevel(url: string): RequestLineLevel {
  return isRelayPath(url) || isApiPath(url) ? 'info' : 'debug';
}

/** The relay's JSON bodies are `{ value, raw }` (relay-request.ts); the model is read from the parsed value. */
function readRelayModel(body: unknown): string | undefined {
  const model = (body as { value?: { model?: unknown } } | null | undefined)?.value?.model;
  if (typeof model !== 'string') return undefined;
  return model.length > MAX_MODEL_LENGTH ? `${model.slice(0, MAX_MODEL_LENGTH)}…` : model;
}

/** What one finished request is logged with: read from what the request already holds, nothing looked up. */
export function describeFinishedRequest(request: FinishedRequest, reply: FinishedReply): RequestLineFields {
  const { url } = request;
  const queryStart = url.indexOf('?');
  const isRelay = isRelayPath(url);
  return {
    method: request.method,
    path: queryStart === -1 ? url : url.slice(0, queryStart),
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    ip: request.ip,
    model: isRelay ? readRelayModel(request.body) : undefined,
    keyName: isRelay ? request.relayCaller?.tokenName : undefined,
    user: request.currentUser?.username,
  };
}

/** Fastify's loggers are pino's; `false` (tests) gives one without isLevelEnabled, whose methods do nothing. */
function isLevelEnabled(log: FastifyBaseLogger, level: RequestLineLevel): boolean {
  const { isLevelEnabled: check } = log as { isLevelEnabled?: (level: string) => boolean };
  return check === undefined || check.call(log, level);
}

/**
 * One line per request when it has been answered, instead of Fastify's two (incoming, completed); errors,
 * stream failures and the rest of Fastify's own lines are unchanged.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error({ ...describeFinishedRequest(request, reply), err: error }, 'request errored');
      return;
    }
    const level = requestLineLevel(request.url);
    if (!isLevelEnabled(reply.log, level)) return;
    reply.log[level](describeFinishedRequest(request, reply), REQUEST_LINE_MESSAGE);
  }
}
