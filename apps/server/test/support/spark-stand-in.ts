import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** iFlytek's WebSocket paths and the domain each serves (https://www.xfyun.cn/doc/spark/Web.html). */
const DOMAIN_OF_PATH: Readonly<Record<string, string>> = {
  '/v1.1/chat': 'lite',
  '/v3.1/chat': 'generalv3',
  '/chat/pro-128k': 'pro-128k',
  '/v3.5/chat': 'generalv3.5',
  '/chat/max-32k': 'max-32k',
  '/v4.0/chat': '4.0Ultra',
};

export interface SparkBehaviour {
  /** answer an error frame with this code instead of an answer (11200 no licence, 10013 input refused …) */
  errorCode?: number;
  /** after the first answer frame, an error frame with this code (10014 output refused, 10012 …) */
  errorAfterFirstFrame?: number;
  /** close the connection after this many answer frames, without the last one */
  closeAfterFrames?: number;
  /** the words of the answer, one frame each */
  words?: string[];
}

export interface SparkReceivedFrame {
  path: string;
  frame: Record<string, unknown>;
}

export interface SparkReceivedHttp {
  path: string;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

export interface SparkStandIn {
  /** http://127.0.0.1:<port>: the channel's base URL (the adapter turns it into ws://) */
  url: string;
  appId: string;
  apiKey: string;
  apiSecret: string;
  /** the HTTP API's password */
  apiPassword: string;
  frames: SparkReceivedFrame[];
  httpRequests: SparkReceivedHttp[];
  /** handshakes refused, and connections the client closed before the last frame */
  refusedHandshakes: number;
  closedByClient: number;
  behaviour: SparkBehaviour;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SID = 'cht000b0a1b@dx190000000000000000';

function refuse(socket: Socket, status: number, message: string) {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * The authentication iFlytek does before upgrading: the URL's authorization must carry the APIKey and the
 * HMAC-SHA256 of `host: …\ndate: …\nGET path HTTP/1.1` by the APISecret, for the host the request came to and
 * a date within 300 seconds.
 */
function findHandshakeProblem(standIn: SparkStandIn, url: URL, host: string): [number, string] | null {
  const date = url.searchParams.get('date') ?? '';
  const authorization = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString('utf8');
  if (url.searchParams.get('host') !== host)
    return [401, 'HMAC signature cannot be verified: the host does not match'];
  if (!Number.isFinite(Date.parse(date)) || Math.abs(Date.now() - Date.parse(date)) > 300_000) {
    return [
      403,
      'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication',
    ];
  }
  const signed = `host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`;
  const signature = createHmac('sha256', standIn.apiSecret).update(signed).digest('base64');
  const expected = `api_key="${standIn.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  return authorization === expected ? null : [401, 'HMAC signature cannot be verified'];
}

const frame = (status: number, text: Record<string, unknown>[], usage?: Record<string, number>) =>
  JSON.stringify({
    header: { code: 0, message: 'Success', sid: SID, status },
    payload: { choices: { status, seq: 0, text }, ...(usage ? { usage: { text: usage } } : {}) },
  });

const errorFrame = (code: number) =>
  JSON.stringify({
    header: { code, message: `StandInError:(${code})refused by the stand-in`, sid: SID, status: 2 },
  });

async function answer(standIn: SparkStandIn, ws: WebSocket, path: string, request: Record<string, unknown>) {
  const { behaviour } = standIn;
  const header = request.header as { app_id?: unknown } | undefined;
  const domain = (request.parameter as { chat?: { domain?: unknown } } | undefined)?.chat?.domain;
  if (header?.app_id !== standIn.appId) return ws.send(errorFrame(11200));
  if (domain !== DOMAIN_OF_PATH[path]) return ws.send(errorFrame(10005));
  if (behaviour.errorCode) return ws.send(errorFrame(behaviour.errorCode));
  const payload = request.payload as {
    message?: { text?: unknown[] };
    functions?: { text?: Array<{ name: string }> };
  };
  const usage = {
    question_tokens: 2,
    prompt_tokens: JSON.stringify(payload.message?.text ?? []).length,
    completion_tokens: 3,
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const functionName = payload.functions?.text?.[0]?.name;
  if (functionName) {
    const call = {
      content: '',
      role: 'assistant',
      index: 0,
      function_call: { name: functionName, arguments: '{"location":"合肥"}' },
    };
    return ws.send(frame(2, [call], usage));
  }
  const words = behaviour.words ?? ['Hello', ' from', ' spark'];
  for (const [index, word] of words.entries()) {
    if (behaviour.closeAfterFrames !== undefined && index >= behaviour.closeAfterFrames)
      return ws.close(1000);
    if (behaviour.errorAfterFirstFrame && index === 1)
      return ws.send(errorFrame(behaviour.errorAfterFirstFrame));
    const isLast = index === words.length - 1;
    ws.send(
      frame(
        isLast ? 2 : index === 0 ? 0 : 1,
        [{ content: word, role: 'assistant', index: 0 }],
        isLast ? usage : undefined,
      ),
    );
    await sleep(2);
  }
}

function answerHttp(standIn: SparkStandIn, response: ServerResponse, received: SparkReceivedHttp) {
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (received.headers.authorization !== `Bearer ${standIn.apiPassword}`) {
    return send(401, { error: { message: 'invalid user', type: 'api_error', param: null, code: null } });
  }
  const body = received.json ?? {};
  const head = {
    code: 0,
    message: 'Success',
    sid: 'cha000b0a1c@dx19000000000',
    id: 'cha000b0a1c@dx19000000000',
    created: 1719546385,
  };
  const usage = { prompt_tokens: 6, completion_tokens: 2, total_tokens: 8 };
  if (body.stream !== true) {
    return send(200, {
      ...head,
      choices: [{ message: { role: 'assistant', content: `${String(body.model)} says hi` }, index: 0 }],
      usage,
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(
    `data:${JSON.stringify({ ...head, choices: [{ delta: { role: 'assistant', content: String(body.model) }, index: 0 }] })}\n\n`,
  );
  response.write(
    `data:${JSON.stringify({ ...head, choices: [{ delta: { role: 'assistant', content: ' says hi' }, index: 0, finish_reason: 'stop' }], usage })}\n\n`,
  );
  response.end('data:[DONE]\n\n');
}

/**
 * iFlytek Spark on 127.0.0.1 (random port): the WebSocket chat API at iFlytek's paths, with its URL
 * authentication checked as iFlytek checks it (a refused handshake answers 401/403 and `{"message": …}`),
 * the request frame checked (app_id, domain of the path), answer frames one word each until status 2 with
 * usage, a function_call when functions are offered, and error frames on demand; and the OpenAI-compatible
 * HTTP API at POST /v1/chat/completions with the APIPassword as bearer token.
 */
export async function startSparkStandIn(): Promise<SparkStandIn> {
  const sockets = new Set<Socket>();
  const wss = new WebSocketServer({ noServer: true });
  const standIn: SparkStandIn = {
    url: '',
    appId: '4f5e6d7c',
    apiKey: 'stand-in-api-key',
    apiSecret: 'stand-in-api-secret',
    apiPassword: 'stand-in-api-password',
    frames: [],
    httpRequests: [],
    refusedHandshakes: 0,
    closedByClient: 0,
    behaviour: {},
    close: async () => {
      for (const client of wss.clients) client.terminate();
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
        json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        json = null;
      }
      const received = { path: request.url ?? '', headers: request.headers, json };
      standIn.httpRequests.push(received);
      if (request.method === 'POST' && received.path === '/v1/chat/completions')
        return answerHttp(standIn, response, received);
      response.writeHead(404);
      response.end();
    });
  });
  server.on('upgrade', (request, socket: Socket, head) => {
    const url = new URL(request.url ?? '/', 'ws://stand-in');
    if (!(url.pathname in DOMAIN_OF_PATH)) return refuse(socket, 403, 'no such path');
    const problem = findHandshakeProblem(standIn, url, request.headers.host ?? '');
    if (problem) {
      standIn.refusedHandshakes += 1;
      return refuse(socket, ...problem);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      let isDone = false;
      ws.on('close', () => {
        if (!isDone) standIn.closedByClient += 1;
      });
      ws.once('message', (data) => {
        const parsed = JSON.parse(String(data)) as Record<string, unknown>;
        standIn.frames.push({ path: url.pathname, frame: parsed });
        answer(standIn, ws, url.pathname, parsed)
          .catch(() => ws.terminate())
          .finally(() => {
            isDone = true;
          });
      });
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
