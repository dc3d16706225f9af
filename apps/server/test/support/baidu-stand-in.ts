import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BaiduChatResponse, BaiduMessage } from '../../src/providers/baidu/baidu-wire-types';

export interface BaiduReceivedRequest {
  method: string;
  /** the path without the query */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

/** How the stand-in answers; every field is optional, the default is a well-behaved Qianfan. */
export interface BaiduBehaviour {
  /** answer chat and embeddings with this error object (with HTTP 200, as Baidu does) */
  error?: { error_code: number; error_msg: string };
  /** answer a recorded transcript of providers/baidu/__fixtures__ */
  fixture?: { json?: string; sse?: string };
  /** the words of the default text answer, one stream event each */
  words?: string[];
}

export interface BaiduStandIn {
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  apiKey: string;
  secretKey: string;
  /** the single key of the v2 API */
  v2Key: string;
  /** access tokens issued and still valid */
  tokens: Set<string>;
  received: BaiduReceivedRequest[];
  behaviour: BaiduBehaviour;
  close(): Promise<void>;
}

const FIXTURES = new URL('../../src/providers/baidu/__fixtures__/', import.meta.url);
const CHAT_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/';
const EMBEDDINGS_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/';
const USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** The checks ERNIE makes of messages: odd count, user (or function) and assistant alternating, no function first. */
function checkMessages(messages: unknown): string | null {
  if (!Array.isArray(messages) || messages.length === 0) return 'the messages field is required';
  if (messages.length % 2 === 0) return 'the length of messages must be an odd number';
  for (const [index, message] of (messages as BaiduMessage[]).entries()) {
    const isUserSide = message.role === 'user' || message.role === 'function';
    if (isUserSide !== (index % 2 === 0) || (index === 0 && message.role === 'function')) {
      return 'the role of message with odd index in the messages must be assistant';
    }
    if (typeof message.content !== 'string') return 'message content must be a string';
  }
  return null;
}

/** A call of the first function when functions were offered and the last message is not its result, else words. */
function answerOf(body: Record<string, unknown>, words: string[]): BaiduChatResponse {
  const functions = Array.isArray(body.functions) ? (body.functions as Array<{ name: string }>) : [];
  const messages = body.messages as BaiduMessage[];
  const base = { id: 'as-standin01', object: 'chat.completion', created: 1_700_000_000, is_truncated: false };
  if (functions.length > 0 && messages.at(-1)?.role !== 'function') {
    return {
      ...base,
      result: '',
      need_clear_history: false,
      finish_reason: 'function_call',
      function_call: {
        name: functions[0]!.name,
        arguments: '{"city":"Paris"}',
        thoughts: 'I will call a tool.',
      },
      usage: USAGE,
    };
  }
  return {
    ...base,
    result: words.join(''),
    need_clear_history: false,
    finish_reason: 'normal',
    usage: USAGE,
  };
}

function answerChat(standIn: BaiduStandIn, response: ServerResponse, body: Record<string, unknown>) {
  const problem = checkMessages(body.messages);
  if (problem) return sendJson(response, 200, { error_code: 336006, error_msg: problem });
  if (body.system !== undefined && typeof body.system !== 'string') {
    return sendJson(response, 200, { error_code: 336003, error_msg: 'system must be a string' });
  }
  const isStream = body.stream === true;
  const recorded = isStream ? standIn.behaviour.fixture?.sse : standIn.behaviour.fixture?.json;
  if (recorded) {
    response.writeHead(200, { 'content-type': isStream ? 'text/event-stream' : 'application/json' });
    return response.end(readFileSync(new URL(recorded, FIXTURES)));
  }
  const words = standIn.behaviour.words ?? ['Hello', ' from', ' ernie'];
  const answer = answerOf(body, words);
  if (!isStream) return sendJson(response, 200, answer);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const pieces = answer.function_call ? [''] : words;
  pieces.forEach((piece, index) => {
    const isEnd = index === pieces.length - 1;
    const event = {
      ...answer,
      sentence_id: index,
      is_end: isEnd,
      result: piece,
      usage: isEnd ? USAGE : { ...USAGE, completion_tokens: 0, total_tokens: USAGE.prompt_tokens },
    };
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  });
  response.end();
}

function answerEmbeddings(response: ServerResponse, body: Record<string, unknown>) {
  const input = Array.isArray(body.input) ? body.input.map(String) : null;
  if (!input) return sendJson(response, 200, { error_code: 336003, error_msg: 'input is required' });
  sendJson(response, 200, {
    id: 'as-standin-embed',
    object: 'embedding_list',
    created: 1_700_000_000,
    data: input.map((text, index) => ({ object: 'embedding', embedding: [text.length / 10, 0.5], index })),
    usage: { prompt_tokens: input.length * 2, total_tokens: input.length * 2 },
  });
}

/** Qianfan v2: OpenAI's chat completions below /v2 with the bearer API key. */
function answerV2(standIn: BaiduStandIn, response: ServerResponse, body: Record<string, unknown>) {
  const words = standIn.behaviour.words ?? ['Hello', ' from', ' qianfan'];
  const base = { id: 'as-v2-standin', created: 1_700_000_000, model: String(body.model) };
  const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
  if (body.stream !== true) {
    return sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' }],
      usage,
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (fields: Record<string, unknown>) =>
    response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...fields })}\n\n`);
  words.forEach((word, index) =>
    chunk({
      choices: [
        {
          index: 0,
          delta: { ...(index === 0 ? { role: 'assistant' } : {}), content: word },
          finish_reason: null,
        },
      ],
    }),
  );
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) chunk({ choices: [], usage });
  response.end('data: [DONE]\n\n');
}

/**
 * Baidu Qianfan on 127.0.0.1 (random port): the OAuth token endpoint (client credentials, 401 invalid_client
 * for a wrong key or secret), ERNIE's v1 chat endpoints (JSON, and SSE events with is_end; function calls when
 * functions are offered; the message checks ERNIE makes) and embeddings, all checking the access token and
 * answering errors with HTTP 200 as Baidu does (110 for an unknown token), and the v2 API's chat with the
 * bearer API key. Every request is recorded.
 */
export async function startBaiduStandIn(
  options: { apiKey?: string; secretKey?: string; v2Key?: string } = {},
): Promise<BaiduStandIn> {
  const sockets = new Set<Socket>();
  let issued = 0;
  const standIn: BaiduStandIn = {
    url: '',
    apiKey: options.apiKey ?? 'baidu-api-key',
    secretKey: options.secretKey ?? 'baidu-secret-key',
    v2Key: options.v2Key ?? 'bce-v3/ALTAK-standin/secret',
    tokens: new Set(),
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
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const { pathname: path, searchParams: query } = url;
      standIn.received.push({ method: request.method ?? '', path, query, headers: request.headers, json });
      if (request.method !== 'POST')
        return sendJson(response, 404, { error_code: 3, error_msg: 'Unsupported openapi method' });
      if (path === '/oauth/2.0/token') {
        if (query.get('grant_type') !== 'client_credentials' || query.get('client_id') !== standIn.apiKey) {
          return sendJson(response, 401, { error: 'invalid_client', error_description: 'unknown client id' });
        }
        if (query.get('client_secret') !== standIn.secretKey) {
          return sendJson(response, 401, {
            error: 'invalid_client',
            error_description: 'Client authentication failed',
          });
        }
        issued += 1;
        const token = `24.standin${issued}.2592000.1700000000.282335-1`;
        standIn.tokens.add(token);
        return sendJson(response, 200, { access_token: token, expires_in: 2_592_000, scope: 'public' });
      }
      if (path.startsWith('/v2/')) {
        if (request.headers.authorization !== `Bearer ${standIn.v2Key}`) {
          return sendJson(response, 401, {
            error: {
              code: 'invalid_iam_token',
              message: 'IAM Certification failed',
              type: 'invalid_request_error',
            },
          });
        }
        if (path === '/v2/chat/completions' && json) return answerV2(standIn, response, json);
        return sendJson(response, 404, {
          error: { code: 'not_found', message: 'not found', type: 'invalid_request_error' },
        });
      }
      if (!standIn.tokens.has(query.get('access_token') ?? '')) {
        return sendJson(response, 200, {
          error_code: 110,
          error_msg: 'Access token invalid or no longer valid',
        });
      }
      if (standIn.behaviour.error) return sendJson(response, 200, standIn.behaviour.error);
      if (!json) return sendJson(response, 200, { error_code: 336002, error_msg: 'Invalid JSON' });
      if (path.startsWith(CHAT_PATH)) return answerChat(standIn, response, json);
      if (path.startsWith(EMBEDDINGS_PATH)) return answerEmbeddings(response, json);
      sendJson(response, 200, { error_code: 336005, error_msg: 'API name not exist' });
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
