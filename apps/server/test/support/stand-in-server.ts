import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a stand-in received it, for asserting what the gateway sent. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** the raw body text */
  body: string;
}

export type StandInHandler = (
  request: ReceivedRequest,
) => { status?: number; json: unknown } | Promise<{ status?: number; json: unknown }>;

export interface StandInServer {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a free port, playing a third party's JSON API. */
export async function startStandInServer(handler: StandInHandler): Promise<StandInServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const received: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      Promise.resolve()
        .then(() => handler(received))
        .then(({ status = 200, json }) => {
          response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify(json));
        })
        .catch((error: unknown) => {
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The body as the caller sent it: JSON or form-encoded, flattened to strings. */
export function readBody(request: ReceivedRequest): Record<string, string> {
  const type = request.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    const parsed = JSON.parse(request.body) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
  }
  return Object.fromEntries(new URLSearchParams(request.body));
}
