import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { Hash, fromUtf8, toUtf8 } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';

/** One event of a ConverseStream transcript: an event with its JSON payload, or an exception event. */
export type BedrockStreamFixtureEvent =
  { eventType: string; payload: unknown } | { exceptionType: string; payload: { message: string } };

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const stringHeader = (value: string) => ({ type: 'string' as const, value });

/** A transcript as the binary frames Bedrock sends (application/vnd.amazon.eventstream). */
export function encodeBedrockEvents(events: BedrockStreamFixtureEvent[]): Buffer {
  const frames = events.map((event) => {
    const headers: Record<string, ReturnType<typeof stringHeader>> = 'eventType' in event
      ? { ':event-type': stringHeader(event.eventType), ':message-type': stringHeader('event') }
      : {
          ':exception-type': stringHeader(event.exceptionType),
          ':message-type': stringHeader('exception'),
        };
    const body = fromUtf8(JSON.stringify(event.payload));
    return codec.encode({ headers: { ...headers, ':content-type': stringHeader('application/json') }, body });
  });
  return Buffer.concat(frames);
}

export interface BedrockStandInRequest {
  /** the path as it arrived, percent-encoding kept */
  rawPath: string;
  /** the model id, decoded */
  modelId: string;
  operation: 'converse' | 'converse-stream' | 'invoke';
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** How the stand-in answers the next calls. The default is a short text answer. */
export interface BedrockStandInBehaviour {
  answer?: unknown;
  streamEvents?: BedrockStreamFixtureEvent[];
  /** write the stream this many bytes at a time */
  streamWriteSize?: number;
  error?: { status: number; errorType: string; message: string };
}

export interface BedrockStandIn {
  /** http://127.0.0.1:<port>, the channel's Base URL */
  url: string;
  /** requests whose signature verified */
  requests: BedrockStandInRequest[];
  /** why requests were refused, in order */
  refusals: string[];
  behaviour: BedrockStandInBehaviour;
  close(): Promise<void>;
}

export const STAND_IN_CREDENTIALS = {
  accessKeyId: 'AKIDSTANDIN000EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYSTANDINKEY',
  region: 'us-west-2',
};

export const STAND_IN_KEY = `${STAND_IN_CREDENTIALS.accessKeyId}|${STAND_IN_CREDENTIALS.secretAccessKey}|${STAND_IN_CREDENTIALS.region}`;

const DEFAULT_ANSWER = {
  output: { message: { role: 'assistant', content: [{ text: 'Hello from the stand-in.' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 9, outputTokens: 5, totalTokens: 14 },
  metrics: { latencyMs: 3 },
};

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

const text = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(',') : (value ?? '');

/** x-amz-date 20250101T120000Z → a Date. */
function parseAmzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return new Date(Number.NaN);
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  return new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
}

/**
 * Checks a request as Bedrock does: the credential scope, the payload hash, and the signature recomputed with
 * the known secret over the request as it arrived (raw path, signed headers, body). Null when it verifies.
 */
async function findSignatureProblem(
  incoming: IncomingMessage,
  rawUrl: string,
  body: Buffer,
): Promise<string | null> {
  const match = AUTHORIZATION.exec(text(incoming.headers.authorization));
  if (!match) return 'MissingAuthenticationTokenException';
  const [, accessKeyId, , region, service, signedHeaders] = match;
  if (accessKeyId !== STAND_IN_CREDENTIALS.accessKeyId) return 'UnrecognizedClientException';
  if (region !== STAND_IN_CREDENTIALS.region || service !== 'bedrock')
    return 'InvalidSignatureException: scope';
  const payloadHash = createHash('sha256').update(body).digest('hex');
  if (text(incoming.headers['x-amz-content-sha256']) !== payloadHash) return 'XAmzContentSHA256Mismatch';
  const url = new URL(rawUrl, 'http://stand-in');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders!.split(';')) headers[name] = text(incoming.headers[name]);
  const signer = new SignatureV4({
    service: 'bedrock',
    region: STAND_IN_CREDENTIALS.region,
    credentials: STAND_IN_CREDENTIALS,
    sha256: Hash.bind(null, 'sha256'),
  });
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => (query[name] = value));
  const expected = await signer.sign(
    {
      method: incoming.method ?? 'POST',
      protocol: 'http:',
      hostname: headers.host ?? '',
      path: url.pathname,
      query,
      headers,
      body,
    },
    { signingDate: parseAmzDate(headers['x-amz-date'] ?? '') },
  );
  return expected.headers.authorization === incoming.headers.authorization
    ? null
    : 'InvalidSignatureException';
}

/** A small vector that depends on the text, so tests can tell inputs apart. */
const vectorOf = (text: string, size: number) =>
  Array.from({ length: size }, (_, index) => ((text.length + index) % 7) / 7);

/**
 * InvokeModel with an embedding model, answered as Bedrock documents it: Titan Text Embeddings take one
 * inputText (V2: dimensions 256/512/1024, normalize) and answer embedding and inputTextTokenCount; Cohere Embed
 * takes texts and an input_type and answers embeddings (by type when embedding_types was sent).
 */
function answerInvoke(response: ServerResponse, modelId: string, body: Record<string, unknown>): void {
  const reply = (answer: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'stand-in' });
    response.end(JSON.stringify(answer));
  };
  if (modelId.startsWith('amazon.titan-embed-text')) {
    if (typeof body.inputText !== 'string')
      return sendError(
        response,
        400,
        'ValidationException',
        'Malformed input request: inputText is required',
      );
    const dimensions = body.dimensions ?? 1024;
    if (![256, 512, 1024].includes(Number(dimensions)))
      return sendError(response, 400, 'ValidationException', 'dimensions must be 256, 512 or 1024');
    const embedding = vectorOf(body.inputText, modelId.includes('v1') ? 8 : Math.min(Number(dimensions), 8));
    return reply({
      embedding,
      inputTextTokenCount: body.inputText.split(/\s+/).filter(Boolean).length,
      ...(modelId.includes('v2') ? { embeddingsByType: { float: embedding } } : {}),
    });
  }
  if (modelId.startsWith('cohere.embed')) {
    const texts = body.texts;
    if (!Array.isArray(texts) || typeof body.input_type !== 'string')
      return sendError(response, 400, 'ValidationException', 'texts and input_type are required');
    const vectors = texts.map((text) => vectorOf(String(text), 8));
    return reply({
      id: 'stand-in-embed',
      texts,
      ...(Array.isArray(body.embedding_types)
        ? { response_type: 'embeddings_by_type', embeddings: { float: vectors } }
        : { response_type: 'embeddings_floats', embeddings: vectors }),
    });
  }
  sendError(response, 400, 'ValidationException', 'The provided model identifier is invalid.');
}

function sendError(response: ServerResponse, status: number, errorType: string, message: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'stand-in-request-id',
  });
  response.end(JSON.stringify({ message }));
}

async function sendStream(response: ServerResponse, behaviour: BedrockStandInBehaviour): Promise<void> {
  const bytes = encodeBedrockEvents(
    behaviour.streamEvents ?? [
      { eventType: 'messageStart', payload: { role: 'assistant' } },
      {
        eventType: 'contentBlockDelta',
        payload: { contentBlockIndex: 0, delta: { text: 'Hello from the stand-in.' } },
      },
      { eventType: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
      { eventType: 'messageStop', payload: { stopReason: 'end_turn' } },
      { eventType: 'metadata', payload: { usage: DEFAULT_ANSWER.usage, metrics: { latencyMs: 3 } } },
    ],
  );
  response.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': 'stand-in',
  });
  const size = behaviour.streamWriteSize ?? bytes.length;
  for (let offset = 0; offset < bytes.length; offset += size) {
    response.write(bytes.subarray(offset, offset + size));
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

/**
 * AWS Bedrock Runtime's Converse, ConverseStream and InvokeModel (embedding models) on 127.0.0.1: refuses any request whose SigV4 signature
 * does not verify (with Bedrock's error answers), records the others, and answers JSON, binary event streams
 * or the error it is told to.
 */
export async function startBedrockStandIn(): Promise<BedrockStandIn> {
  const requests: BedrockStandInRequest[] = [];
  const refusals: string[] = [];
  const standIn = { behaviour: {} as BedrockStandInBehaviour };
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const rawUrl = incoming.url ?? '/';
      const body = Buffer.concat(chunks);
      void (async () => {
        const problem = await findSignatureProblem(incoming, rawUrl, body);
        if (problem) {
          refusals.push(problem);
          const status = problem.startsWith('XAmz') ? 400 : 403;
          return sendError(
            response,
            status,
            problem.split(':')[0]!,
            `The request signature could not be verified: ${problem}`,
          );
        }
        const route = /^\/model\/([^/]+)\/(converse|converse-stream|invoke)$/.exec(rawUrl.split('?')[0]!);
        if (!route || incoming.method !== 'POST')
          return sendError(response, 404, 'UnknownOperationException', 'Not found');
        requests.push({
          rawPath: rawUrl,
          modelId: decodeURIComponent(route[1]!),
          operation: route[2] as BedrockStandInRequest['operation'],
          headers: incoming.headers,
          body: JSON.parse(body.toString('utf8')) as Record<string, unknown>,
        });
        const { behaviour } = standIn;
        if (behaviour.error)
          return sendError(
            response,
            behaviour.error.status,
            behaviour.error.errorType,
            behaviour.error.message,
          );
        if (route[2] === 'converse-stream') return sendStream(response, behaviour);
        if (route[2] === 'invoke')
          return answerInvoke(response, decodeURIComponent(route[1]!), JSON.parse(body.toString('utf8')));
        response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'stand-in' });
        response.end(JSON.stringify(behaviour.answer ?? DEFAULT_ANSWER));
      })().catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refusals,
    get behaviour() {
      return standIn.behaviour;
    },
    set behaviour(value) {
      standIn.behaviour = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
