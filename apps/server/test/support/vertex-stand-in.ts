import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AnthropicMessage } from '../../src/providers/anthropic/anthropic-wire-types';
import { anthropicErrorBody } from './anthropic-stand-in';
import { anthropicMessageEvents } from './anthropic-message-events';
import { countWords, defaultAnswer, embeddingOf, googleError, streamOf } from './gemini-stand-in-answers';

/** A fixture of the Vertex AI adapter (apps/server/src/providers/vertex-ai/__fixtures__), as bytes. */
export function readVertexFixture(name: string): Buffer {
  return readFileSync(new URL(`../../src/providers/vertex-ai/__fixtures__/${name}`, import.meta.url));
}

export type VertexStandInMethod =
  'generateContent' | 'streamGenerateContent' | 'rawPredict' | 'streamRawPredict' | 'predict';

export interface VertexStandInRequest {
  path: string;
  query: URLSearchParams;
  project: string;
  location: string;
  publisher: string;
  model: string;
  method: string;
  /** the bearer token of the Authorization header, '' without one */
  accessToken: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/** How the stand-in answers. Every field is optional: the default is a well-behaved Vertex AI. */
export interface VertexStandInBehaviour {
  /** answer with a recorded fixture instead of the stand-in's own answer */
  fixture?: { json?: string; sse?: string };
  /** answer every call with this status and body (Google's or Anthropic's error object) */
  error?: { status: number; body: unknown };
  /**
   * prompt tokens served from Vertex's context cache (implicit or explicit): Gemini reports them as
   * usageMetadata.cachedContentTokenCount, Claude as usage.cache_read_input_tokens
   */
  cachedTokens?: number;
}

export interface VertexStandIn {
  /** http://127.0.0.1:<port>: the channel's Base URL */
  url: string;
  /** the project and location it serves; others are refused as Vertex refuses a project without access */
  project: string;
  location: string;
  /** the access tokens it accepts (share the Google token stand-in's `issued` list) */
  acceptedTokens: readonly string[];
  requests: VertexStandInRequest[];
  behaviour: VertexStandInBehaviour;
  close(): Promise<void>;
}

const PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):(\w+)$/;
const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

function sendEvents(response: ServerResponse, events: string[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(events.join(''));
}

function claudeAnswer(request: VertexStandInRequest, cachedTokens = 0): AnthropicMessage {
  const messages = (request.body?.messages ?? []) as Array<{ content: string | Array<{ text?: string }> }>;
  const prompt = messages
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((block) => block.text ?? '').join(' '),
    )
    .join(' ');
  return {
    id: 'msg_vrtx_stand_in',
    type: 'message',
    role: 'assistant',
    model: request.model.replace('@', '-'),
    content: [{ type: 'text', text: `Hello from the Vertex stand-in (${request.model}).` }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: countWords(prompt),
      output_tokens: 6,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: cachedTokens,
    },
  };
}

/** Claude's body on Vertex: anthropic_version in it, no model (the URL names it), stream only on streamRawPredict. */
function claudeBodyProblem(request: VertexStandInRequest): string | null {
  const body = request.body ?? {};
  if (body.anthropic_version !== VERTEX_ANTHROPIC_VERSION)
    return `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`;
  if ('model' in body) return 'model: Extra inputs are not permitted';
  if ((body.stream === true) !== (request.method === 'streamRawPredict'))
    return 'stream: streamRawPredict takes stream: true, rawPredict does not';
  return null;
}

/** The stand-in's Gemini answer, with the cache hit the behaviour asks for in its usage. */
function geminiAnswer(standIn: VertexStandIn, request: VertexStandInRequest) {
  const answer = defaultAnswer(request.body, request.model);
  const cached = standIn.behaviour.cachedTokens;
  if (!cached) return answer;
  const usage = answer.usageMetadata ?? {};
  const promptTokenCount = Math.max(usage.promptTokenCount ?? 0, cached);
  return {
    ...answer,
    usageMetadata: {
      ...usage,
      promptTokenCount,
      totalTokenCount: promptTokenCount + (usage.candidatesTokenCount ?? 0),
      cachedContentTokenCount: cached,
      cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }],
    },
  };
}

function answerGoogle(standIn: VertexStandIn, request: VertexStandInRequest, response: ServerResponse): void {
  const { fixture } = standIn.behaviour;
  switch (request.method) {
    case 'generateContent':
      return send(
        response,
        200,
        fixture?.json ? readVertexFixture(fixture.json) : geminiAnswer(standIn, request),
      );
    case 'streamGenerateContent':
      if (request.query.get('alt') !== 'sse')
        return send(
          response,
          400,
          googleError(400, 'INVALID_ARGUMENT', 'The stand-in streams alt=sse only.'),
        );
      if (fixture?.sse) return sendEvents(response, [readVertexFixture(fixture.sse).toString('utf8')]);
      return sendEvents(
        response,
        streamOf(geminiAnswer(standIn, request)).map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`),
      );
    case 'predict': {
      if (fixture?.json) return send(response, 200, readVertexFixture(fixture.json));
      const instances = (request.body?.instances ?? []) as Array<{ content: string }>;
      const dimensions = Number(
        (request.body?.parameters as { outputDimensionality?: number })?.outputDimensionality ?? 4,
      );
      return send(response, 200, {
        predictions: instances.map(({ content }) => ({
          embeddings: {
            statistics: { truncated: false, token_count: countWords(content) },
            values: embeddingOf(content, dimensions),
          },
        })),
        metadata: { billableCharacterCount: instances.reduce((sum, { content }) => sum + content.length, 0) },
      });
    }
    default:
      return send(
        response,
        400,
        googleError(400, 'INVALID_ARGUMENT', `Google models have no method ${request.method}.`),
      );
  }
}

function answerAnthropic(
  standIn: VertexStandIn,
  request: VertexStandInRequest,
  response: ServerResponse,
): void {
  const { fixture } = standIn.behaviour;
  const problem = claudeBodyProblem(request);
  if (problem) return send(response, 400, anthropicErrorBody('invalid_request_error', problem));
  if (request.method === 'rawPredict') {
    return send(
      response,
      200,
      fixture?.json ? readVertexFixture(fixture.json) : claudeAnswer(request, standIn.behaviour.cachedTokens),
    );
  }
  if (fixture?.sse) return sendEvents(response, [readVertexFixture(fixture.sse).toString('utf8')]);
  const events = anthropicMessageEvents(claudeAnswer(request, standIn.behaviour.cachedTokens));
  return sendEvents(
    response,
    events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
  );
}

function answer(
  standIn: VertexStandIn,
  request: VertexStandInRequest | null,
  response: ServerResponse,
): void {
  if (!request) return send(response, 404, googleError(404, 'NOT_FOUND', 'The requested URL was not found.'));
  if (!standIn.acceptedTokens.includes(request.accessToken)) {
    return send(response, 401, JSON.parse(readVertexFixture('error-unauthenticated.json').toString('utf8')));
  }
  if (request.project !== standIn.project || request.location !== standIn.location) {
    const resource = `projects/${request.project}/locations/${request.location}/publishers/${request.publisher}/models/${request.model}`;
    return send(
      response,
      403,
      googleError(
        403,
        'PERMISSION_DENIED',
        `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
        'IAM_PERMISSION_DENIED',
      ),
    );
  }
  if (standIn.behaviour.error)
    return send(response, standIn.behaviour.error.status, standIn.behaviour.error.body);
  const isClaude = request.model.startsWith('claude-');
  if (isClaude !== (request.publisher === 'anthropic')) {
    return send(
      response,
      404,
      googleError(
        404,
        'NOT_FOUND',
        `Publisher Model \`projects/${request.project}/locations/${request.location}/publishers/${request.publisher}/models/${request.model}\` not found.`,
      ),
    );
  }
  return isClaude ? answerAnthropic(standIn, request, response) : answerGoogle(standIn, request, response);
}

function readRequest(incoming: IncomingMessage, rawBody: Buffer): VertexStandInRequest | null {
  const url = new URL(incoming.url ?? '/', 'http://stand-in');
  const match = PATH.exec(url.pathname);
  if (!match || incoming.method !== 'POST') return null;
  const authorization = incoming.headers.authorization ?? '';
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
  } catch {
    body = null;
  }
  const [, project, location, publisher, model, method] = match as unknown as string[];
  return {
    path: url.pathname,
    query: url.searchParams,
    project: project!,
    location: location!,
    publisher: publisher!,
    model: decodeURIComponent(model!),
    method: method!,
    accessToken: authorization.startsWith('Bearer ') ? authorization.slice(7) : '',
    headers: incoming.headers,
    body,
  };
}

/**
 * Vertex AI's prediction API on 127.0.0.1 (random port), as a channel's Base URL: Gemini's generateContent and
 * streamGenerateContent?alt=sse and the text embeddings' predict under publishers/google, Claude's rawPredict
 * and streamRawPredict (Anthropic's body with anthropic_version vertex-2023-10-16, no model) under
 * publishers/anthropic. It checks the bearer token, the project and location, answers the stand-in's own
 * answers or recorded fixtures, and Google's (or Claude's) errors.
 */
export async function startVertexStandIn(options: {
  project: string;
  location: string;
  acceptedTokens: readonly string[];
  behaviour?: VertexStandInBehaviour;
}): Promise<VertexStandIn> {
  const sockets = new Set<Socket>();
  const standIn: VertexStandIn = {
    url: '',
    project: options.project,
    location: options.location,
    acceptedTokens: options.acceptedTokens,
    requests: [],
    behaviour: options.behaviour ?? {},
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
      if (request) standIn.requests.push(request);
      try {
        answer(standIn, request, response);
      } catch {
        incoming.socket.destroy();
      }
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
