import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answer } from './openai-upstream-answers';
import type { OpenAIUpstream, ReceivedRequest, UpstreamBehaviour } from './openai-upstream-types';

export type {
  OpenAIUpstream,
  ReceivedRequest,
  UpstreamBehaviour,
  UpstreamUsage,
} from './openai-upstream-types';

/** A real OpenAI-protocol HTTP server on 127.0.0.1 (random port), recording what it receives. */
export async function startOpenAIUpstream(
  name = 'upstream',
  behaviour: UpstreamBehaviour = {},
): Promise<OpenAIUpstream> {
  const sockets = new Set<Socket>();
  const upstream: OpenAIUpstream = {
    name,
    url: '',
    received: [],
    behaviour,
    streamsCutByClient: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: Record<string, unknown> | null = null;
      if (String(request.headers['content-type'] ?? '').includes('json')) {
        try {
          json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        } catch {
          json = null;
        }
      }
      const received: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
        json,
      };
      upstream.received.push(received);
      answer(upstream, request, response, received).catch(() => request.socket.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}
