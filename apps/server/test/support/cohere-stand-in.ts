import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type {
  CohereChatResponse,
  CohereStreamEvent,
  CohereToolCall,
  CohereUsage,
} from '../../src/providers/cohere/cohere-wire-types';

export interface CohereReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

/** How the stand-in answers; every field is optional, the default is a well-behaved Cohere. */
export interface CohereBehaviour {
  /** answer this status with Cohere's error body */
  error?: { status: number; message: string };
  /** answer a recorded transcript of providers/cohere/__fixtures__ */
  fixture?: { json?: string; sse?: string };
  /** the words of the default text answer, one content-delta each */
  words?: string[];
  /** prompt tokens that hit Cohere's inference cache: usage.cached_tokens */
  cachedTokens?: number;
}

export interface CohereStandIn {
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  apiKey: string;
  received: CohereReceivedRequest[];
  behaviour: CohereBehaviour;
  close(): Promise<void>;
}

const FIXTURES = new URL('../../src/providers/cohere/__fixtures__/', import.meta.url);
const USAGE = {
  billed_units: { input_tokens: 12, output_tokens: 5 },
  tokens: { input_tokens: 80, output_tokens: 5 },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A call of the first tool when tools were offered and the last message is not its result, else words. */
function answerOf(body: Record<string, unknown>, words: string[], usage: CohereUsage): CohereChatResponse {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last: unknown = messages.at(-1);
  if (tools.length > 0 && !(isObject(last) && last.role === 'tool')) {
    const name = String((tools[0] as { function?: { name?: unknown } }).function?.name);
    const call: CohereToolCall = {
      id: `${name}_standin01`,
      type: 'function',
      function: { name, arguments: '{"city":"Paris"}' },
    };
    return {
      id: 'stand-in-chat',
      finish_reason: 'TOOL_CALL',
      message: { role: 'assistant', tool_plan: 'I will call a tool.', tool_calls: [call] },
      usage,
    };
  }
  return {
    id: 'stand-in-chat',
    finish_reason: 'COMPLETE',
    message: { role: 'assistant', content: [{ type: 'text', text: words.join('') }] },
    usage,
  };
}

/** The documented event sequence of a streamed answer (https://docs.cohere.com/docs/streaming). */
function eventsOf(answer: CohereChatResponse, words: string[]): CohereStreamEvent[] {
  const events: CohereStreamEvent[] = [{ type: 'message-start', id: answer.id }];
  const { tool_calls: calls = [], tool_plan: plan } = answer.message;
  if (calls.length > 0) {
    if (plan) events.push({ type: 'tool-plan-delta', delta: { message: { tool_plan: plan } } });
    calls.forEach((call, index) => {
      const start = { ...call, function: { name: call.function.name, arguments: '' } };
      events.push({ type: 'tool-call-start', index, delta: { message: { tool_calls: start } } });
      events.push({
        type: 'tool-call-delta',
        index,
        delta: { message: { tool_calls: { function: { arguments: call.function.arguments } } } },
      });
      events.push({ type: 'tool-call-end', index });
    });
  } else {
    events.push({
      type: 'content-start',
      index: 0,
      delta: { message: { content: { type: 'text', text: '' } } },
    });
    for (const word of words) {
      events.push({ type: 'content-delta', index: 0, delta: { message: { content: { text: word } } } });
    }
    events.push({ type: 'content-end', index: 0 });
  }
  events.push({ type: 'message-end', delta: { finish_reason: answer.finish_reason, usage: answer.usage } });
  return events;
}

function answerChat(standIn: CohereStandIn, response: ServerResponse, body: Record<string, unknown>) {
  if (typeof body.model !== 'string')
    return sendJson(response, 400, { message: 'invalid request: model is required' });
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return sendJson(response, 400, { message: 'invalid request: messages must not be empty' });
  }
  const isStream = body.stream === true;
  const recorded = isStream ? standIn.behaviour.fixture?.sse : standIn.behaviour.fixture?.json;
  if (recorded) {
    response.writeHead(200, { 'content-type': isStream ? 'text/event-stream' : 'application/json' });
    return response.end(readFileSync(new URL(recorded, FIXTURES)));
  }
  const words = standIn.behaviour.words ?? ['Hello', ' from', ' cohere'];
  const { cachedTokens } = standIn.behaviour;
  const answer = answerOf(body, words, cachedTokens ? { ...USAGE, cached_tokens: cachedTokens } : USAGE);
  if (!isStream) return sendJson(response, 200, answer);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of eventsOf(answer, words))
    response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  response.end();
}

function answerEmbed(response: ServerResponse, body: Record<string, unknown>) {
  const texts = Array.isArray(body.texts) ? body.texts.map(String) : null;
  if (!texts || typeof body.input_type !== 'string') {
    return sendJson(response, 400, {
      message: 'invalid request: valid input_type must be provided with the provided model',
    });
  }
  sendJson(response, 200, {
    id: 'stand-in-embed',
    embeddings: { float: texts.map((text) => [text.length / 10, 0.5, -0.25]) },
    texts,
    meta: { api_version: { version: '2' }, billed_units: { input_tokens: texts.length * 2 } },
    response_type: 'embeddings_by_type',
  });
}

/**
 * Cohere's v2 API on 127.0.0.1 (random port): POST /v2/chat (JSON, and SSE with the documented event
 * sequence, tool calls when tools are offered) and POST /v2/embed. It checks the bearer key as Cohere does
 * (401 `{"message":"invalid api token"}`), records every request, and answers errors in Cohere's shape.
 */
export async function startCohereStandIn(options: { apiKey?: string } = {}): Promise<CohereStandIn> {
  const sockets = new Set<Socket>();
  const standIn: CohereStandIn = {
    url: '',
    apiKey: options.apiKey ?? 'co-stand-in',
    received: [],
    behaviour: {},
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let json: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        json = isObject(parsed) ? parsed : null;
      } catch {
        json = null;
      }
      const url = request.url ?? '';
      standIn.received.push({ method: request.method ?? '', url, headers: request.headers, json });
      if (request.headers.authorization !== `Bearer ${standIn.apiKey}`) {
        return sendJson(response, 401, { id: 'stand-in-error', message: 'invalid api token' });
      }
      const { error } = standIn.behaviour;
      if (error) return sendJson(response, error.status, { id: 'stand-in-error', message: error.message });
      if (!json) return sendJson(response, 400, { message: 'invalid request: the body is not valid JSON' });
      if (request.method === 'POST' && url === '/v2/chat') return answerChat(standIn, response, json);
      if (request.method === 'POST' && url === '/v2/embed') return answerEmbed(response, json);
      sendJson(response, 404, { message: `${request.method} ${url} not found` });
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
