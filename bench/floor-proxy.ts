import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { announceReady, isMainModule } from './child-entry';

/**
 * The floor: the least a Node.js relay can do. Reads the client's body, sends it upstream with the channel's
 * key over a keep-alive undici Pool (request(), as the gateway does), and streams the answer back with its
 * status, type and length. No auth, no parsing, no billing, no logging.
 */
export async function startFloorProxy(upstreamUrl: string, upstreamKey: string): Promise<string> {
  const pool = new Pool(upstreamUrl, { keepAliveTimeout: 30_000 });

  async function relay(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
    const abort = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const upstream = await pool.request({
      method: 'POST',
      path: request.url ?? '/',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${upstreamKey}` },
      body,
      signal: abort.signal,
    });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'content-length', 'cache-control']) {
      const value = upstream.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    response.writeHead(upstream.statusCode, headers);
    await pipeline(upstream.body, response);
  }

  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      relay(request, response, Buffer.concat(parts)).catch(() => {
        if (!response.headersSent) response.writeHead(502);
        response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

if (isMainModule(import.meta.url)) {
  const upstream = process.env.BENCH_UPSTREAM_URL;
  if (!upstream) throw new Error('BENCH_UPSTREAM_URL is required');
  const url = await startFloorProxy(upstream, process.env.BENCH_UPSTREAM_KEY ?? 'sk-bench-upstream');
  announceReady({ url });
}
