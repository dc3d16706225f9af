import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type {
  GeminiContent,
  GeminiErrorBody,
  GeminiGenerateContentRequest,
  GeminiGenerateContentResponse,
  GeminiModel,
} from '../../src/providers/gemini/gemini-wire-types';
import {
  countWords,
  defaultAnswer,
  embeddingOf,
  geminiErrors,
  googleError,
  streamOf,
  textOf,
} from './gemini-stand-in-answers';

export { geminiErrors, googleError } from './gemini-stand-in-answers';

/** The key the stand-in accepts, in `x-goog-api-key` or `?key=` as the Gemini API takes it. */
export const GEMINI_STAND_IN_KEY = 'AIzaSyStandIn-0000000000000000000000000';

/** A fixture of the Gemini adapter (apps/server/src/providers/gemini/__fixtures__), as bytes. */
export function readGeminiFixture(name: string): Buffer {
  return readFileSync(new URL(`../../src/providers/gemini/__fixtures__/${name}`, import.meta.url));
}

export type GeminiStandInMethod =
  | 'generateContent'
  | 'streamGenerateContent'
  | 'countTokens'
  | 'embedContent'
  | 'batchEmbedContents'
  | 'listModels'
  | 'getModel';

export interface GeminiStandInRequest {
  httpMethod: string;
  /** the path, e.g. /v1beta/models/gemini-2.5-flash:generateContent */
  path: string;
  query: URLSearchParams;
  /** v1beta, v1 … */
  version: string;
  /** the model id without `models/`, null for the model list */
  model: string | null;
  method: GeminiStandInMethod | null;
  /** the key from x-goog-api-key, else from ?key= */
  apiKey: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

type Scripted<T> = T | ((request: GeminiStandInRequest) => T);

/** How the stand-in answers. Every field is optional: the default is a well-behaved Gemini. */
export interface GeminiStandInBehaviour {
  /** the generateContent answer; by default a short text, or a call of the first declared function */
  answer?: Scripted<GeminiGenerateContentResponse>;
  /** the events of streamGenerateContent; by default the answer, one word per event */
  streamEvents?: Scripted<GeminiGenerateContentResponse[]>;
  /** raw `alt=sse` bytes (a fixture transcript), sent instead of streamEvents */
  streamBody?: Buffer;
  /** answer every call with this error */
  error?: GeminiErrorBody;
  /** close the stream after this many events, without its end */
  breakStreamAfterEvents?: number;
  /** wait before answering, and between stream events */
  delayMs?: number;
  eventDelayMs?: number;
  /** the models GET /v1beta/models lists */
  models?: string[];
}

export interface GeminiStandIn {
  /** http://127.0.0.1:<port>: the channel's Base URL, or the `@google/genai` client's baseUrl */
  url: string;
  requests: GeminiStandInRequest[];
  behaviour: GeminiStandInBehaviour;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-embedding-001'];
const PATH = /^\/(v\d+(?:alpha|beta)?)\/models(?:\/([^:]+)(?::(\w+))?)?$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const scripted = <T>(value: Scripted<T>, request: GeminiStandInRequest): T =>
  typeof value === 'function' ? (value as (request: GeminiStandInRequest) => T)(request) : value;

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

async function stream(
  standIn: GeminiStandIn,
  request: GeminiStandInRequest,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { behaviour } = standIn;
  const isSse = request.query.get('alt') === 'sse';
  const events = behaviour.streamEvents
    ? scripted(behaviour.streamEvents, request)
    : streamOf(
        behaviour.answer ? scripted(behaviour.answer, request) : defaultAnswer(request.body, request.model),
      );
  response.writeHead(200, {
    'content-type': isSse ? 'text/event-stream' : 'application/json; charset=UTF-8',
  });
  if (isSse && behaviour.streamBody) {
    response.end(behaviour.streamBody);
    return;
  }
  if (!isSse) response.write('[');
  for (const [index, event] of events.entries()) {
    if (behaviour.breakStreamAfterEvents !== undefined && index >= behaviour.breakStreamAfterEvents) {
      // Let what was written reach the client first: a real upstream dies mid-answer, not before it.
      await sleep(50);
      incoming.socket.destroy();
      return;
    }
    if (behaviour.eventDelayMs) await sleep(behaviour.eventDelayMs);
    // Google ends each event with CRLF CRLF; the JSON-array form separates events with commas.
    response.write(
      isSse
        ? `data: ${JSON.stringify(event)}\r\n\r\n`
        : `${index > 0 ? ',\r\n' : ''}${JSON.stringify(event)}`,
    );
  }
  response.end(isSse ? undefined : ']');
}

async function answer(
  standIn: GeminiStandIn,
  request: GeminiStandInRequest,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { behaviour } = standIn;
  if (behaviour.delayMs) await sleep(behaviour.delayMs);
  if (!request.apiKey) return send(response, 403, geminiErrors.permissionDenied);
  if (request.apiKey !== GEMINI_STAND_IN_KEY) return send(response, 400, geminiErrors.apiKeyInvalid);
  if (behaviour.error) return send(response, behaviour.error.error.code, behaviour.error);
  const models = behaviour.models ?? DEFAULT_MODELS;
  if (request.method === 'listModels') {
    const listed: GeminiModel[] = models.map((model) => ({
      name: `models/${model}`,
      displayName: model,
      supportedGenerationMethods: model.includes('embedding')
        ? ['embedContent', 'batchEmbedContents']
        : ['generateContent', 'streamGenerateContent', 'countTokens'],
    }));
    return send(response, 200, { models: listed });
  }
  if (request.model === null || !models.includes(request.model))
    return send(response, 404, geminiErrors.notFound(request.model ?? ''));
  const body = request.body ?? {};
  switch (request.method) {
    case 'getModel':
      return send(response, 200, { name: `models/${request.model}`, displayName: request.model });
    case 'generateContent':
      return send(
        response,
        200,
        behaviour.answer ? scripted(behaviour.answer, request) : defaultAnswer(request.body, request.model),
      );
    case 'streamGenerateContent':
      return stream(standIn, request, incoming, response);
    case 'countTokens': {
      const generate = body.generateContentRequest as Partial<GeminiGenerateContentRequest> | undefined;
      const contents = (body.contents ?? generate?.contents) as GeminiContent[] | undefined;
      return send(response, 200, { totalTokens: countWords(textOf(contents)) });
    }
    case 'embedContent': {
      const text = textOf([body.content as GeminiContent]);
      return send(response, 200, {
        embedding: { values: embeddingOf(text, Number(body.outputDimensionality ?? 4)) },
      });
    }
    case 'batchEmbedContents': {
      const requests = (body.requests ?? []) as Array<{
        content: GeminiContent;
        outputDimensionality?: number;
      }>;
      return send(response, 200, {
        embeddings: requests.map((each) => ({
          values: embeddingOf(textOf([each.content]), each.outputDimensionality ?? 4),
        })),
      });
    }
    default:
      return send(response, 404, googleError(404, 'NOT_FOUND', `Unknown method ${request.path}`));
  }
}

function readRequest(incoming: IncomingMessage, rawBody: Buffer): GeminiStandInRequest {
  const url = new URL(incoming.url ?? '/', 'http://stand-in');
  const match = PATH.exec(url.pathname);
  const httpMethod = incoming.method ?? 'GET';
  const headerKey = incoming.headers['x-goog-api-key'];
  let body: Record<string, unknown> | null = null;
  try {
    body = rawBody.length > 0 ? (JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  const model = match?.[2] ?? null;
  const method = !match
    ? null
    : model === null
      ? httpMethod === 'GET'
        ? 'listModels'
        : null
      : ((match[3] ?? (httpMethod === 'GET' ? 'getModel' : null)) as GeminiStandInMethod | null);
  return {
    httpMethod,
    path: url.pathname,
    query: url.searchParams,
    version: match?.[1] ?? '',
    model,
    method,
    apiKey: (typeof headerKey === 'string' ? headerKey : '') || (url.searchParams.get('key') ?? ''),
    headers: incoming.headers,
    body,
  };
}

/**
 * A real Gemini API v1beta server on 127.0.0.1 (random port), for end-to-end tests of the Gemini channel
 * adapter and of the inbound Gemini protocol with the `openai` and `@google/genai` clients: generateContent,
 * streamGenerateContent (alt=sse, or the JSON array without it), countTokens, embedContent,
 * batchEmbedContents, the model list; keys checked as Google does (403 without one, 400 API_KEY_INVALID).
 */
export async function startGeminiStandIn(behaviour: GeminiStandInBehaviour = {}): Promise<GeminiStandIn> {
  const sockets = new Set<Socket>();
  const standIn: GeminiStandIn = {
    url: '',
    requests: [],
    behaviour,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = readRequest(incoming, Buffer.concat(chunks));
      standIn.requests.push(request);
      answer(standIn, request, incoming, response).catch(() => incoming.socket.destroy());
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
