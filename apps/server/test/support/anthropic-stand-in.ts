import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isAbsolute } from 'node:path';
import type {
  AnthropicContentBlock,
  AnthropicErrorBody,
  AnthropicMessage,
  AnthropicUsage,
} from '../../src/providers/anthropic/anthropic-wire-types';
import type { AnthropicStreamEvent } from '../../src/providers/anthropic/anthropic-stream-events';
import { anthropicMessageEvents } from './anthropic-message-events';

/** A request the stand-in received, as it arrived on the wire. */
export interface AnthropicReceivedRequest {
  method: string;
  /** path and query, e.g. /v1/messages */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the body parsed when it is JSON */
  json: Record<string, unknown> | null;
}

/** The parts of an answer a test scripts; the rest (id, model, usage …) is filled in. */
export type ScriptedAnswer = Partial<Omit<AnthropicMessage, 'usage'>> & { usage?: Partial<AnthropicUsage> };

/** How the stand-in answers. Every field is optional: the default is a well-behaved Anthropic. */
export interface AnthropicBehaviour {
  /** answer this status with Anthropic's error body; the type defaults to the one Anthropic uses for it */
  error?: { status: number; type?: string; message?: string };
  /** close the socket without answering */
  disconnect?: boolean;
  /** answer a recorded transcript: a fixture name of providers/anthropic/__fixtures__ or an absolute path */
  fixture?: { json?: string; sse?: string };
  /** the answer, or a function of the request's body giving it */
  answer?: ScriptedAnswer | ((body: Record<string, unknown>) => ScriptedAnswer);
  /** the words of the default text answer, one text_delta each */
  words?: string[];
  /** counts reported in `usage` */
  usage?: Partial<AnthropicUsage>;
  /** streams: send an error event (overloaded_error unless said) after this many events, then end */
  streamErrorAfterEvents?: number;
  streamError?: { type: string; message: string };
  /** streams: break the connection after this many events */
  breakStreamAfterEvents?: number;
  /** wait before the headers */
  delayMs?: number;
  /** wait between stream events */
  eventDelayMs?: number;
}

export interface AnthropicStandIn {
  name: string;
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  /** the key it accepts, in x-api-key or as `Authorization: Bearer` (the SDKs for 2026-10-21 send that) */
  apiKey: string;
  received: AnthropicReceivedRequest[];
  behaviour: AnthropicBehaviour;
  /** streamed answers whose connection the client closed before the stream ended */
  streamsCutByClient: number;
  close(): Promise<void>;
}

const FIXTURES = new URL('../../src/providers/anthropic/__fixtures__/', import.meta.url);

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_USAGE: AnthropicUsage = {
  input_tokens: 12,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function anthropicErrorBody(type: string, message: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message }, request_id: 'req_stand_in' };
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': 'req_stand_in',
    ...headers,
  });
  response.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, type?: string, message?: string) {
  const errorType = type ?? ERROR_TYPES[status] ?? 'api_error';
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
  sendJson(response, status, anthropicErrorBody(errorType, message ?? errorType.replace(/_/g, ' ')), headers);
}

const readFixture = (name: string) => readFileSync(isAbsolute(name) ? name : new URL(name, FIXTURES));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function lastMessageHasToolResult(body: Record<string, unknown>): boolean {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last: unknown = messages.at(-1);
  if (!isObject(last) || !Array.isArray(last.content)) return false;
  return last.content.some((block) => isObject(block) && block.type === 'tool_result');
}

/**
 * The default answer: a call of the first custom tool when tools were offered and no result came back yet,
 * else the behaviour's words; a signed thinking block first when thinking was asked for.
 */
function defaultAnswer(standIn: AnthropicStandIn, body: Record<string, unknown>): ScriptedAnswer {
  const content: AnthropicContentBlock[] = [];
  if (isObject(body.thinking) && body.thinking.type === 'enabled') {
    content.push({ type: 'thinking', thinking: 'The user greets me.', signature: 'stand-in-signature' });
  }
  const tools = Array.isArray(body.tools)
    ? body.tools.filter((tool) => isObject(tool) && 'input_schema' in tool)
    : [];
  if (tools.length > 0 && !lastMessageHasToolResult(body)) {
    const name = String((tools[0] as { name?: unknown }).name);
    content.push({ type: 'tool_use', id: 'toolu_01StandIn', name, input: { city: 'Paris' } });
    return { content, stop_reason: 'tool_use' };
  }
  const words = standIn.behaviour.words ?? ['Hello', ' from', ` ${standIn.name}`];
  content.push({ type: 'text', text: words.join('') });
  return { content, stop_reason: 'end_turn' };
}

function buildMessage(standIn: AnthropicStandIn, body: Record<string, unknown>): AnthropicMessage {
  const { behaviour } = standIn;
  const scripted =
    typeof behaviour.answer === 'function'
      ? behaviour.answer(body)
      : (behaviour.answer ?? defaultAnswer(standIn, body));
  return {
    id: 'msg_01StandIn',
    type: 'message',
    role: 'assistant',
    model: String(body.model),
    content: [],
    stop_reason: 'end_turn',
    stop_sequence: null,
    ...scripted,
    usage: { ...DEFAULT_USAGE, ...behaviour.usage, ...scripted.usage },
  };
}

async function streamEvents(
  standIn: AnthropicStandIn,
  request: IncomingMessage,
  response: ServerResponse,
  events: AnthropicStreamEvent[],
): Promise<void> {
  const { behaviour } = standIn;
  let isClosed = false;
  response.on('close', () => {
    if (!response.writableFinished) {
      isClosed = true;
      standIn.streamsCutByClient += 1;
    }
  });
  response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_stand_in' });
  for (const [count, event] of events.entries()) {
    if (behaviour.eventDelayMs) await sleep(behaviour.eventDelayMs);
    if (isClosed) return;
    if (behaviour.breakStreamAfterEvents !== undefined && count >= behaviour.breakStreamAfterEvents) {
      // Let what was written reach the client first: a real upstream dies mid-answer, not before it.
      await sleep(50);
      request.socket.destroy();
      return;
    }
    if (behaviour.streamErrorAfterEvents !== undefined && count >= behaviour.streamErrorAfterEvents) {
      const { type, message } = behaviour.streamError ?? { type: 'overloaded_error', message: 'Overloaded' };
      response.end(`event: error\ndata: ${JSON.stringify(anthropicErrorBody(type, message))}\n\n`);
      return;
    }
    response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }
  response.end();
}

/**
 * What Anthropic checks first: the fields every Messages request needs, and the sampling parameters that API
 * version 2026-10-21 removed (https://docs.anthropic.com/en/api/versioning).
 */
function findMissingField(body: Record<string, unknown> | null, version: string): string | null {
  if (!body) return 'body: the request body is not valid JSON';
  if (version >= '2026-10-21') {
    const removed = ['temperature', 'top_p', 'top_k'].find((field) => field in body);
    if (removed) return `${removed}: Extra inputs are not permitted in API version ${version}`;
  }
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  const thinking = body.thinking;
  if (
    isObject(thinking) &&
    thinking.type === 'enabled' &&
    Number(thinking.budget_tokens) >= body.max_tokens
  ) {
    return '`max_tokens` must be greater than `thinking.budget_tokens`';
  }
  return null;
}

/** A rough count: enough for a test to see that count_tokens was called with the body. */
const countTokens = (body: Record<string, unknown>) =>
  Math.ceil(JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]).length / 4);

async function answer(
  standIn: AnthropicStandIn,
  request: IncomingMessage,
  response: ServerResponse,
  received: AnthropicReceivedRequest,
) {
  const { behaviour } = standIn;
  if (behaviour.delayMs) await sleep(behaviour.delayMs);
  if (behaviour.disconnect) {
    request.socket.destroy();
    return;
  }
  const { headers } = received;
  if (headers['x-api-key'] !== standIn.apiKey && headers.authorization !== `Bearer ${standIn.apiKey}`) {
    return sendError(response, 401, undefined, 'invalid x-api-key');
  }
  if (!headers['anthropic-version']) {
    return sendError(response, 400, undefined, 'anthropic-version: header is required');
  }
  if (behaviour.error)
    return sendError(response, behaviour.error.status, behaviour.error.type, behaviour.error.message);
  const path = received.url.split('?')[0];
  if (request.method === 'GET' && path === '/v1/models') {
    const data = ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'].map((id) => ({
      type: 'model',
      id,
      display_name: id,
      created_at: '2025-09-29T00:00:00Z',
    }));
    return sendJson(response, 200, { data, has_more: false, first_id: data[0].id, last_id: data[1].id });
  }
  if (request.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
    return sendError(response, 404, undefined, `Not found: ${request.method} ${path}`);
  }
  const body = received.json;
  if (path === '/v1/messages/count_tokens') {
    if (!body || typeof body.model !== 'string')
      return sendError(response, 400, undefined, 'model: Field required');
    return sendJson(response, 200, { input_tokens: behaviour.usage?.input_tokens ?? countTokens(body) });
  }
  const missing = findMissingField(body, String(headers['anthropic-version']));
  if (missing || !body) return sendError(response, 400, undefined, missing ?? 'invalid body');
  const isStream = body.stream === true;
  if (behaviour.fixture) {
    const name = isStream ? behaviour.fixture.sse : behaviour.fixture.json;
    if (name) {
      const contentType = isStream ? 'text/event-stream' : 'application/json';
      response.writeHead(200, { 'content-type': contentType, 'request-id': 'req_stand_in' });
      response.end(readFixture(name));
      return;
    }
  }
  const message = buildMessage(standIn, body);
  if (isStream) {
    const words = behaviour.answer ? undefined : behaviour.words;
    return streamEvents(standIn, request, response, anthropicMessageEvents(message, words));
  }
  sendJson(response, 200, message);
}

/**
 * A real Anthropic Messages API on 127.0.0.1 (random port): `POST /v1/messages` (JSON and SSE with the real
 * event sequence), `POST /v1/messages/count_tokens`, `GET /v1/models`. It checks the key (x-api-key or
 * bearer) and anthropic-version as Anthropic does, records every request, and answers errors in Anthropic's
 * shape. Checked with @anthropic-ai/sdk 1.12 (create, stream, count_tokens, models, typed errors).
 */
export async function startAnthropicStandIn(
  options: { name?: string; apiKey?: string; behaviour?: AnthropicBehaviour } = {},
): Promise<AnthropicStandIn> {
  const sockets = new Set<Socket>();
  const standIn: AnthropicStandIn = {
    name: options.name ?? 'anthropic',
    url: '',
    apiKey: options.apiKey ?? 'sk-ant-stand-in',
    received: [],
    behaviour: options.behaviour ?? {},
    streamsCutByClient: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(body.toString('utf8'));
        json = isObject(parsed) ? parsed : null;
      } catch {
        json = null;
      }
      const received = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
        json,
      };
      standIn.received.push(received);
      answer(standIn, request, response, received).catch(() => request.socket.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
