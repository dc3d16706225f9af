import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';

/**
 * More ways in for new connections while the event loop is busy.
 *
 * Node 20's libuv takes one new connection per event-loop turn from a listening socket (a turn ends with
 * `epoll_wait`, and the listener's callback accepts once). A gateway relaying hundreds of streams has turns of
 * tens of milliseconds, so a burst of new connections (clients reconnecting together, a load balancer's pool
 * filling) waits in the kernel's accept queue, one turn each: measured with 256 connections opened at once
 * against a busy server, the last ones got their first byte after 1–1.5 s instead of ~0.1 s.
 *
 * The fix is more descriptors of the same listening socket in the same loop: each is its own epoll entry, so
 * each takes one connection per turn (a descriptor finding the queue empty gets EAGAIN and nothing else
 * happens). Node offers no dup(2), but a descriptor sent over an IPC channel arrives as a new one: a short-lived
 * child echoes the listening handle back `count` times and exits. The connections accepted on the extra
 * descriptors are handed to the HTTP server as its own ('connection' is the documented way in), so they are
 * served, counted and closed like the others. Not used by a cluster worker (the primary accepts for it) nor on
 * Windows, whose handle passing works otherwise; SO_REUSEPORT, which would do the same, needs Node ≥ 22.12.
 */

/**
 * Echoes the handle it is sent back as many times as asked; ends when the parent disconnects (handles go one
 * at a time, each acknowledged, so leaving earlier would lose the rest; the listener stays on because the IPC
 * channel keeps the child alive only while someone listens). Runs with `node -e`.
 */
const ECHO_CHILD = `process.on('message', (count, handle) => {
  if (handle) for (let sent = 0; sent < count; sent += 1) process.send('acceptor', handle);
});`;

/** How long the child may take to start and echo; past it the server goes on with the one descriptor. */
const ECHO_TIMEOUT_MS = 10_000;

/** The listening socket's handle, which net.Server keeps under `_handle` (the IPC channel sends it). */
function listeningHandle(server: Server): object | null {
  const handle = (server as unknown as { _handle?: object | null })._handle;
  return handle ?? null;
}

/** Fetches `count` new descriptors of the listening handle through an echoing child process. */
function echoDescriptors(handle: object, count: number): Promise<object[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ECHO_CHILD], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const received: object[] = [];
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the descriptor echo took longer than ${ECHO_TIMEOUT_MS} ms`));
    }, ECHO_TIMEOUT_MS);
    child.on('message', (message, echoed) => {
      if (message !== 'acceptor' || !echoed) return;
      received.push(echoed);
      if (received.length === count) child.disconnect();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (received.length === count) resolve(received);
      else reject(new Error(`the descriptor echo ended (code ${code}) after ${received.length} of ${count}`));
    });
    child.send(count, handle as Parameters<typeof child.send>[1]);
  });
}

/** Listens on one echoed descriptor and hands what it accepts to `server`. */
function listenOn(handle: object, server: Server): Promise<Server> {
  const acceptor = createServer({ noDelay: true });
  acceptor.on('connection', (socket) => server.emit('connection', socket));
  return new Promise((resolve, reject) => {
    acceptor.once('error', reject);
    acceptor.listen(handle, () => {
      acceptor.off('error', reject);
      resolve(acceptor);
    });
  });
}

/**
 * Gives the listening `server` `count` more descriptors, each accepting one connection per turn; resolves with
 * a function that stops them (call it when closing the server). Stops nothing and adds nothing when `count` is
 * 0. Rejects when the descriptors could not be had (the server keeps listening as before).
 *
 * The stop resolves once every connection they accepted has ended. The server serves those connections, but
 * net.Server counts a connection where it was accepted: `server.close()` waits for its own only, so a graceful
 * stop must wait for this too, or it would end the process under answers still being written.
 */
export async function addAcceptors(server: Server, count: number): Promise<() => Promise<void>> {
  const handle = listeningHandle(server);
  if (count <= 0 || handle === null) return () => Promise.resolve();
  const descriptors = await echoDescriptors(handle, count);
  const acceptors = await Promise.all(descriptors.map((descriptor) => listenOn(descriptor, server)));
  return async () => {
    await Promise.all(
      acceptors.map((acceptor) => new Promise<void>((resolve) => acceptor.close(() => resolve()))),
    );
  };
}
