import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addAcceptors } from './acceptors';

const servers: Server[] = [];
const clients: Socket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    // http.Server adopts a connection it is handed: the socket names it as its server.
    const adopted = (request.socket as { server?: unknown }).server === server;
    response.end(adopted ? 'served' : 'served elsewhere');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** One GET over a new connection: the body. */
function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    clients.push(socket);
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(text.slice(text.indexOf('\r\n\r\n') + 4)));
    socket.write('GET / HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n');
  });
}

/** Busy-waits, so connections queue up in the kernel while the loop is held. */
function holdLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

/**
 * Opens `count` connections at once, holds the loop until the kernel has them all queued, then counts how
 * many the server accepts in each of the following turns.
 */
async function acceptedPerTurn(server: Server, port: number, count: number): Promise<number[]> {
  let accepted = 0;
  server.on('connection', () => (accepted += 1));
  for (let index = 0; index < count; index += 1) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    clients.push(socket);
  }
  // connect() runs on the next tick, before this one; loopback handshakes complete in the kernel, so after
  // holding the loop every connection waits in the accept queue, none accepted yet (no turn has run).
  await new Promise((resolve) => process.nextTick(resolve));
  holdLoop(100);
  const perTurn: number[] = [];
  let before = accepted;
  expect(before).toBe(0);
  await new Promise<void>((resolve) => {
    const turn = () => {
      perTurn.push(accepted - before);
      before = accepted;
      if (accepted >= count || perTurn.length > count * 4) resolve();
      else setImmediate(turn);
    };
    setImmediate(turn);
  });
  return perTurn;
}

describe('addAcceptors', () => {
  it('serves connections through every descriptor, as the server’s own', async () => {
    const { server, port } = await listening();
    const stop = await addAcceptors(server, 4);
    const bodies = await Promise.all(Array.from({ length: 40 }, () => get(port)));
    expect(new Set(bodies)).toEqual(new Set(['served']));
    await stop();
  });

  it('takes several queued connections per turn of a busy loop, where one descriptor takes one', async () => {
    const alone = await listening();
    const one = await acceptedPerTurn(alone.server, alone.port, 24);
    expect(Math.max(...one)).toBe(1);

    const helped = await listening();
    const stop = await addAcceptors(helped.server, 7);
    const several = await acceptedPerTurn(helped.server, helped.port, 24);
    expect(several.reduce((sum, each) => sum + each, 0)).toBe(24);
    expect(Math.max(...several)).toBe(8);
    // The stop waits for the connections the extra descriptors took: these never sent a request.
    for (const client of clients.splice(0)) client.destroy();
    await stop();
  });

  it('stops accepting on the extra descriptors once stopped', async () => {
    const { server, port } = await listening();
    const stop = await addAcceptors(server, 3);
    await stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    servers.splice(servers.indexOf(server), 1);
    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('adds nothing when asked for none', async () => {
    const { server, port } = await listening();
    const stop = await addAcceptors(server, 0);
    expect(await get(port)).toBe('served');
    await stop();
  });

  it('stops once the answers under way on the connections they accepted have ended', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const server = createServer((_request, response) => {
      waiting += 1;
      void released.then(() => response.end('served'));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const stop = await addAcceptors(server, 7);
    // Queued together while the loop is held, the eight are taken in one turn, one per descriptor: seven by the
    // extra ones.
    const bodies = Array.from({ length: 8 }, () => get(port));
    await new Promise((resolve) => process.nextTick(resolve));
    holdLoop(100);
    while (waiting < 8) await new Promise((resolve) => setTimeout(resolve, 10));
    let isStopped = false;
    const stopped = stop().then(() => (isStopped = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isStopped).toBe(false);
    release();
    expect(await Promise.all(bodies)).toEqual(Array(8).fill('served'));
    await stopped;
  });
});
