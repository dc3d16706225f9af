import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceReady, isMainModule } from './child-entry';
import { readMessagesRequest, sendMessagesJson, sendMessagesStream } from './mock-anthropic';

/** The completion every answer carries: a few short pieces, like a small model reply. */
const PIECES = ['Hello', '! How', ' can I', ' help', ' you today?'];
const USAGE = { prompt_tokens: 24, completion_tokens: 9, total_tokens: 33 };

interface ChatRequest {
  model: string;
  isStream: boolean;
  wantsUsage: boolean;
}

function readChatRequest(raw: string): ChatRequest {
  const body = JSON.parse(raw) as {
    model?: unknown;
    stream?: unknown;
    stream_options?: { include_usage?: unknown };
  };
  return {
    model: typeof body.model === 'string' ? body.model : 'gpt-4o-mini',
    isStream: body.stream === true,
    wantsUsage: body.stream_options?.include_usage === true,
  };
}

function sendJson(response: ServerResponse, id: string, chat: ChatRequest): void {
  const body = JSON.stringify({
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: chat.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: PIECES.join(''), refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: USAGE,
    system_fingerprint: 'fp_bench',
  });
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * One SSE event per piece, then the finish chunk, the usage chunk when asked and [DONE]. Each event is its own
 * write on its own tick, so a proxy sees (and must forward) several chunks, as from a real model.
 */
function sendStream(response: ServerResponse, id: string, chat: ChatRequest): void {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finishReason: string | null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: chat.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    })}\n\n`;
  const events = [
    chunk({ role: 'assistant', content: PIECES[0] }, null),
    ...PIECES.slice(1).map((piece) => chunk({ content: piece }, null)),
    chunk({}, 'stop'),
  ];
  if (chat.wantsUsage) {
    const usage = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: chat.model,
      choices: [],
      usage: USAGE,
    };
    events.push(`data: ${JSON.stringify(usage)}\n\n`);
  }
  events.push('data: [DONE]\n\n');
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let next = 0;
  const writeNext = () => {
    if (response.destroyed) return;
    const event = events[next];
    next += 1;
    if (next === events.length) response.end(event);
    else {
      response.write(event);
      setImmediate(writeNext);
    }
  };
  writeNext();
}

function handle(request: IncomingMessage, response: ServerResponse, nextId: () => string): void {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    if (request.method === 'POST' && request.url === '/v1/messages') {
      const messages = readMessagesRequest(Buffer.concat(parts).toString('utf8'));
      const id = `msg_${nextId()}`;
      if (messages.isStream) sendMessagesStream(response, id, messages, PIECES);
      else sendMessagesJson(response, id, messages, PIECES);
      return;
    }
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `no route ${request.url}`, type: 'invalid_request_error' } }),
      );
      return;
    }
    let chat: ChatRequest;
    try {
      chat = readChatRequest(Buffer.concat(parts).toString('utf8'));
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'invalid JSON', type: 'invalid_request_error' } }));
      return;
    }
    const id = nextId();
    if (chat.isStream) sendStream(response, id, chat);
    else sendJson(response, id, chat);
  });
}

/**
 * A local OpenAI chat completions upstream (JSON, or SSE with `stream: true`), which also speaks Anthropic's
 * Messages API at /v1/messages (mock-anthropic.ts).
 */
export async function startMockUpstream(): Promise<{ server: Server; url: string }> {
  let counter = 0;
  const nextId = () => `chatcmpl-bench${(counter += 1)}`;
  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) =>
    handle(request, response, nextId),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

if (isMainModule(import.meta.url)) {
  const { url } = await startMockUpstream();
  announceReady({ url });
}
