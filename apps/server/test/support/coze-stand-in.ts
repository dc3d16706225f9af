import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface CozeReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

/** How the stand-in answers; every field is optional, the default is a well-behaved Coze. */
export interface CozeBehaviour {
  /** answer a recorded transcript of providers/coze/__fixtures__ with 200, as Coze does */
  fixture?: string;
  /** the words of the default answer, one conversation.message.delta each */
  words?: string[];
}

export interface CozeStandIn {
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  token: string;
  /** bot ids that exist; any other is answered with code 4200 */
  botIds: string[];
  received: CozeReceivedRequest[];
  behaviour: CozeBehaviour;
  close(): Promise<void>;
}

const FIXTURES = new URL('../../src/providers/coze/__fixtures__/', import.meta.url);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Coze answers a refused call with HTTP 200 and its `{code, msg}` body. */
function refuse(response: ServerResponse, code: number, msg: string) {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ code, msg, detail: { logid: 'stand-in' } }));
}

function streamChat(response: ServerResponse, body: Record<string, unknown>, words: string[]) {
  const chat = {
    id: '7400000000000000001',
    conversation_id: '7400000000000000002',
    bot_id: String(body.bot_id),
  };
  const messageId = '7400000000000000003';
  const event = (name: string, data: unknown) =>
    response.write(`event:${name}\ndata:${JSON.stringify(data)}\n\n`);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  event('conversation.chat.created', {
    ...chat,
    status: 'created',
    usage: { token_count: 0, output_count: 0, input_count: 0 },
  });
  event('conversation.chat.in_progress', { ...chat, status: 'in_progress' });
  const answer = { id: messageId, chat_id: chat.id, role: 'assistant', type: 'answer', content_type: 'text' };
  for (const word of words) event('conversation.message.delta', { ...answer, content: word });
  event('conversation.message.completed', { ...answer, content: words.join('') });
  event('conversation.message.completed', {
    ...answer,
    id: '7400000000000000004',
    type: 'follow_up',
    content: 'More?',
  });
  const messages = Array.isArray(body.additional_messages) ? body.additional_messages : [];
  const input = JSON.stringify(messages).length;
  event('conversation.chat.completed', {
    ...chat,
    status: 'completed',
    usage: { token_count: input + words.length, output_count: words.length, input_count: input },
  });
  response.end('event:done\ndata:"[DONE]"\n\n');
}

/**
 * Coze's chat v3 on 127.0.0.1 (random port): POST /v3/chat streamed as Coze streams it (chat created, message
 * deltas, message completed, follow-up, chat completed with usage, done). Like Coze it answers a refused call
 * with HTTP 200 and `{code, msg}`: 4100 for a wrong token, 4200 for an unknown bot, 4000 for a body without
 * user_id or messages. It records every request.
 */
export async function startCozeStandIn(
  options: { token?: string; botIds?: string[] } = {},
): Promise<CozeStandIn> {
  const sockets = new Set<Socket>();
  const standIn: CozeStandIn = {
    url: '',
    token: options.token ?? 'pat_stand_in',
    botIds: options.botIds ?? ['7379462189365198898'],
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
      if (request.method !== 'POST' || url.split('?')[0] !== '/v3/chat') {
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('404 page not found');
      }
      if (request.headers.authorization !== `Bearer ${standIn.token}`)
        return refuse(response, 4100, 'authentication is invalid');
      if (standIn.behaviour.fixture) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return response.end(readFileSync(new URL(standIn.behaviour.fixture, FIXTURES)));
      }
      if (
        !json ||
        typeof json.user_id !== 'string' ||
        !json.user_id ||
        !Array.isArray(json.additional_messages)
      ) {
        return refuse(response, 4000, 'The request parameters are incorrect');
      }
      if (!standIn.botIds.includes(String(json.bot_id))) return refuse(response, 4200, 'bot not exist');
      streamChat(response, json, standIn.behaviour.words ?? ['Hello', ' from', ' coze']);
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
