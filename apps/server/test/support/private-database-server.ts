import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../../../bench/free-port';

/**
 * A database server of a test's own — never the machine's shared one — in a folder under /tmp, on a free port,
 * to stop hard and start again mid-run: PostgreSQL (`pg_ctl stop -m immediate`) or MariaDB (`kill -9` of its
 * mariadbd). Both run as their system user, as the packages install them.
 */
export interface PrivateDatabaseServer {
  name: string;
  dsn: string;
  start(): Promise<void>;
  /** stops it the hard way: nothing is flushed, connections break */
  stopNow(): void;
  /** stops it the clean way (everything written to its files) and starts it again */
  restartCleanly(): Promise<void>;
  /** stops it (when running) and deletes its folder */
  remove(): Promise<void>;
  /** the end of the server's own log, to print when a test on it fails */
  logTail(): string;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';
const MARIADB_BINARIES = [
  '/usr/sbin/mariadbd',
  '/usr/bin/mariadb-install-db',
  '/usr/bin/mariadb',
  '/usr/bin/mariadb-admin',
];

function hasUser(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why a private server of this kind cannot run here, or null when it can. */
export function whyNoPrivateServer(kind: 'postgres' | 'mariadb'): string | null {
  if (kind === 'postgres') {
    if (!existsSync(path.join(PG_BIN, 'initdb'))) return `no PostgreSQL binaries in ${PG_BIN}`;
    return hasUser('postgres') ? null : 'no postgres system user';
  }
  const missing = MARIADB_BINARIES.filter((binary) => !existsSync(binary));
  if (missing.length > 0) return `MariaDB binaries missing: ${missing.join(', ')}`;
  return hasUser('mysql') ? null : 'no mysql system user';
}

function runAs(user: string, command: string, args: string[]): string {
  return execFileSync('runuser', ['-u', user, '--', command, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

function folderFor(user: string, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  return dir;
}

export async function createPrivatePostgres(): Promise<PrivateDatabaseServer> {
  const dir = folderFor('postgres', 'gatehouse-outage-pg-');
  const port = await findFreePort();
  const data = path.join(dir, 'data');
  runAs('postgres', path.join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const stopNow = () =>
    void runAs('postgres', path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  const server: PrivateDatabaseServer = {
    name: 'PostgreSQL',
    dsn: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`;
      const log = path.join(dir, 'server.log');
      runAs('postgres', path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', 'start']);
    },
    stopNow,
    restartCleanly: async () => {
      runAs('postgres', path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      await server.start();
    },
    remove: async () => {
      try {
        stopNow();
      } catch {
        // stopped already
      }
      rmSync(dir, { recursive: true, force: true });
    },
    logTail: () => tailOf(path.join(dir, 'server.log')),
  };
  await server.start();
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Blocks until process `pid` has ended (polling every 20 ms), or throws after `limitMs`. */
function waitForExit(pid: number, limitMs: number, after: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; isAlive(pid); waited += 20) {
    if (waited > limitMs) throw new Error(`process ${pid} still runs ${limitMs / 1000} s after ${after}`);
    Atomics.wait(pause, 0, 0, 20);
  }
}

function tailOf(file: string, chars = 4_000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch (error) {
    return `(no log: ${(error as Error).message})`;
  }
}

export async function createPrivateMariadb(): Promise<PrivateDatabaseServer> {
  const dir = folderFor('mysql', 'gatehouse-outage-maria-');
  const port = await findFreePort();
  const data = path.join(dir, 'data');
  const pidFile = path.join(dir, 'mariadbd.pid');
  runAs('mysql', '/usr/bin/mariadb-install-db', [
    `--datadir=${data}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  const query = (statement: string) =>
    execFileSync(
      '/usr/bin/mariadb',
      ['--protocol=tcp', '-h127.0.0.1', `-P${port}`, '-uroot', '-e', statement],
      { stdio: 'ignore', timeout: 10_000 },
    );
  const mariadbPid = () => Number(readFileSync(pidFile, 'utf8').trim());
  const stopNow = () => {
    const pid = mariadbPid();
    process.kill(pid, 'SIGKILL');
    // Gone before this returns, so a start that follows never finds the old server still holding its files.
    waitForExit(pid, 10_000, 'kill -9');
    rmSync(pidFile, { force: true });
  };
  const server: PrivateDatabaseServer = {
    name: 'MariaDB',
    dsn: `mysql://root@127.0.0.1:${port}/gatehouse`,
    start: async () => {
      const child = spawn(
        'runuser',
        [
          '-u',
          'mysql',
          '--',
          '/usr/sbin/mariadbd',
          '--no-defaults',
          `--datadir=${data}`,
          `--port=${port}`,
          '--bind-address=127.0.0.1',
          `--socket=${path.join(dir, 'mariadbd.sock')}`,
          `--pid-file=${pidFile}`,
          `--log-error=${path.join(dir, 'error.log')}`,
          '--innodb-flush-log-at-trx-commit=1',
        ],
        { stdio: 'ignore', detached: true },
      );
      child.unref();
      for (let waited = 0; ; waited += 200) {
        try {
          query('SELECT 1');
          return;
        } catch (error) {
          if (waited > 60_000) throw error;
          await sleep(200);
        }
      }
    },
    stopNow,
    restartCleanly: async () => {
      const pid = mariadbPid();
      execFileSync(
        '/usr/bin/mariadb-admin',
        ['--protocol=tcp', '-h127.0.0.1', `-P${port}`, '-uroot', 'shutdown'],
        {
          stdio: 'ignore',
          timeout: 60_000,
        },
      );
      waitForExit(pid, 60_000, 'its shutdown');
      await server.start();
    },
    remove: async () => {
      if (existsSync(pidFile)) stopNow();
      await sleep(200);
      rmSync(dir, { recursive: true, force: true });
    },
    logTail: () => tailOf(path.join(dir, 'error.log')),
  };
  await server.start();
  query('CREATE DATABASE gatehouse');
  return server;
}
