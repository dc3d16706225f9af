import net from 'node:net';
import { afterAll } from 'vitest';

/**
 * Tests never reach the internet: every upstream, token endpoint and database they use is a stand-in on the
 * loopback address. A connection anywhere else (a forgotten base URL that falls back to a vendor's real
 * address) is refused at once, and the test file fails naming where it tried to go.
 */
const refused: string[] = ((globalThis as { refusedConnections?: string[] }).refusedConnections ??= []);

/** The hosts refused so far, forgotten: for the test of this guard, whose refusals are expected. */
export function takeRefusedHosts(): string[] {
  return refused.splice(0);
}

function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    /^::ffff:127\.\d+\.\d+\.\d+$/i.test(host)
  );
}

/** The host of net.Socket#connect's arguments, or null for a Unix socket / Windows pipe. */
function hostOf(args: unknown[]): string | null {
  const [first, second] = args;
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string; path?: string };
    if (options.path !== undefined) return null;
    return options.host ?? 'localhost';
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return null;
  return typeof second === 'string' ? second : 'localhost';
}

// Once per worker: setup files run again for every test file, and the guard must not wrap itself.
const connect = net.Socket.prototype.connect as (this: net.Socket, ...args: unknown[]) => net.Socket;
const isGuarded = (connect as { isGuard?: boolean }).isGuard === true;
const guardedConnect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const host = hostOf(args);
  if (host !== null && !isLoopback(host)) {
    refused.push(host);
    const error = Object.assign(
      new Error(`Tests must not reach the internet: a connection to ${host} was refused (use a stand-in)`),
      { code: 'ECONNREFUSED' },
    );
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
if (!isGuarded) {
  Object.assign(guardedConnect, { isGuard: true });
  net.Socket.prototype.connect = guardedConnect as typeof net.Socket.prototype.connect;
}

afterAll(() => {
  const hosts = refused.splice(0);
  if (hosts.length > 0) {
    throw new Error(`Tests tried to reach the internet: ${[...new Set(hosts)].join(', ')}`);
  }
});
