import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type {
  DashScopeMessage,
  DashScopeResponse,
  DashScopeUsage,
} from '../../src/providers/dashscope/dashscope-wire-types';

export interface DashScopeReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

/** How the stand-in answers; every field is optional, the default is a well-behaved DashScope. */
export interface DashScopeBehaviour {
  /** answer this status with DashScope's error body */
  error?: { status: number; code: string; message: string };
  /** answer a recorded transcript of providers/dashscope/__fixtures__ */
  fixture?: { json?: string; sse?: string };
  words?: string[];
  /** prompt tokens read from the context cache: usage.prompt_tokens_details.cached_tokens */
  cachedTokens?: number;
}

export interface DashScopeStandIn {
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  apiKey: string;
  received: DashScopeReceivedRequest[];
  behaviour: DashScopeBehaviour;
  close(): Promise<void>;
}

const FIXTURES = new URL('../../src/providers/dashscope/__fixtures__/', import.meta.url);
const TEXT_PATH = '/api/v1/services/aigc/text-generation/generation';
const MULTIMODAL_PATH = '/api/v1/services/aigc/multimodal-generation/generation';
const EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding';
const REQUEST_ID = 'stand-in-request-id';
const USAGE = { input_tokens: 12, output_tokens: 5, total_tokens: 17 };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const sendError = (response: ServerResponse, status: number, code: string, message: string) =>
  sendJson(response, status, { code, message, request_id: REQUEST_ID });

/** The multimodal endpoint takes parts only; the text endpoint text only. */
function checkMessages(messages: unknown, isMultimodal: boolean): string | null {
  if (!Array.isArray(messages) || messages.length === 0)
    return 'Input should be a valid list: input.messages';
  for (const message of messages as DashScopeMessage[]) {
    if (isMultimodal !== Array.isArray(message.content)) {
      return isMultimodal
        ? 'The content of a message must be a list of parts'
        : 'Input should be a valid string: content';
    }
  }
  return null;
}

function answerOf(
  body: Record<string, unknown>,
  words: string[],
  isMultimodal: boolean,
  usage: DashScopeUsage,
): DashScopeResponse {
  const parameters = isObject(body.parameters) ? body.parameters : {};
  const tools = Array.isArray(parameters.tools)
    ? (parameters.tools as Array<{ function: { name: string } }>)
    : [];
  const messages = (body.input as { messages: DashScopeMessage[] }).messages;
  if (tools.length > 0 && messages.at(-1)?.role !== 'tool') {
    const call = {
      index: 0,
      id: 'call_standin01',
      type: 'function' as const,
      function: { name: tools[0]!.function.name, arguments: '{"city":"Paris"}' },
    };
    return {
      output: {
        choices: [
          { finish_reason: 'tool_calls', message: { role: 'assistant', content: '', tool_calls: [call] } },
        ],
      },
      usage,
      request_id: REQUEST_ID,
    };
  }
  const text = words.join('');
  return {
    output: {
      choices: [
        { finish_reason: 'stop', message: { role: 'assistant', content: isMultimodal ? [{ text }] : text } },
      ],
    },
    usage,
    request_id: REQUEST_ID,
  };
}

function answerGeneration(
  standIn: DashScopeStandIn,
  response: ServerResponse,
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
  isMultimodal: boolean,
) {
  if (typeof body.model !== 'string') return sendError(response, 400, 'InvalidParameter', 'Model not exist.');
  const problem = checkMessages(isObject(body.input) ? body.input.messages : undefined, isMultimodal);
  if (problem) return sendError(response, 400, 'InvalidParameter', problem);
  const isStream = headers['x-dashscope-sse'] === 'enable' || headers.accept === 'text/event-stream';
  const recorded = isStream ? standIn.behaviour.fixture?.sse : standIn.behaviour.fixture?.json;
  if (recorded) {
    response.writeHead(200, { 'content-type': isStream ? 'text/event-stream' : 'application/json' });
    return response.end(readFileSync(new URL(recorded, FIXTURES)));
  }
  const words = standIn.behaviour.words ?? ['Hello', ' from', ' qwen'];
  const { cachedTokens } = standIn.behaviour;
  const usage: DashScopeUsage = cachedTokens
    ? { ...USAGE, prompt_tokens_details: { cached_tokens: cachedTokens } }
    : USAGE;
  const answer = answerOf(body, words, isMultimodal, usage);
  if (!isStream) return sendJson(response, 200, answer);
  const parameters = isObject(body.parameters) ? body.parameters : {};
  if (parameters.incremental_output !== true) {
    return sendError(response, 400, 'InvalidParameter', 'The stand-in answers incremental streams only');
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const choice = answer.output!.choices![0]!;
  const pieces = choice.message!.tool_calls ? [''] : words;
  pieces.forEach((piece, index) => {
    const isLast = index === pieces.length - 1;
    const message = { ...choice.message, content: isMultimodal ? [{ text: piece }] : piece };
    const data = {
      output: { choices: [{ message, finish_reason: isLast ? choice.finish_reason : 'null' }] },
      usage: isLast
        ? usage
        : { ...usage, output_tokens: index + 1, total_tokens: USAGE.input_tokens + index + 1 },
      request_id: REQUEST_ID,
    };
    response.write(`id:${index + 1}\nevent:result\n:HTTP_STATUS/200\ndata:${JSON.stringify(data)}\n\n`);
  });
  response.end();
}

function answerEmbedding(response: ServerResponse, body: Record<string, unknown>) {
  const input = isObject(body.input) ? body.input : {};
  const texts = Array.isArray(input.texts) ? input.texts.map(String) : null;
  if (!texts) return sendError(response, 400, 'InvalidParameter', 'input.texts should be a list of strings');
  sendJson(response, 200, {
    output: {
      embeddings: texts.map((text, index) => ({ text_index: index, embedding: [text.length / 10, 0.5] })),
    },
    usage: { total_tokens: texts.length * 2 },
    request_id: REQUEST_ID,
  });
}

/**
 * DashScope's native API on 127.0.0.1 (random port): text-generation and multimodal-generation (JSON, and
 * SSE with `id:`, `event:result`, `:HTTP_STATUS/200` and `data:` lines when X-DashScope-SSE is enable; tool
 * calls when tools are offered; each endpoint's content shape checked) and text-embedding. It checks the
 * bearer key as DashScope does (401 InvalidApiKey), records every request, and answers errors in its shape.
 */
export async function startDashScopeStandIn(options: { apiKey?: string } = {}): Promise<DashScopeStandIn> {
  const sockets = new Set<Socket>();
  const standIn: DashScopeStandIn = {
    url: '',
    apiKey: options.apiKey ?? 'sk-dashscope-stand-in',
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
      const path = request.url ?? '';
      standIn.received.push({ method: request.method ?? '', path, headers: request.headers, json });
      if (request.headers.authorization !== `Bearer ${standIn.apiKey}`) {
        return sendError(response, 401, 'InvalidApiKey', 'Invalid API-key provided.');
      }
      const { error } = standIn.behaviour;
      if (error) return sendError(response, error.status, error.code, error.message);
      if (!json) return sendError(response, 400, 'InvalidParameter', 'The body is not valid JSON');
      if (request.method === 'POST' && path === TEXT_PATH)
        return answerGeneration(standIn, response, json, request.headers, false);
      if (request.method === 'POST' && path === MULTIMODAL_PATH)
        return answerGeneration(standIn, response, json, request.headers, true);
      if (request.method === 'POST' && path === EMBEDDING_PATH) return answerEmbedding(response, json);
      sendError(response, 404, 'InvalidURL', `${path} not found`);
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
