import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config';
import { SETTLE_AFTER_CUT_MS } from '../http/graceful-stop';
import type { ChosenLogFormat } from '../logging/logger-options';
import { createPrimarySharedState, serveSharedState } from './shared-state-ipc';

/** Tells a worker its slot; slot 1 is the lead (start-up work and background jobs). */
export const WORKER_SLOT_VARIABLE = 'GATEHOUSE_WORKER_SLOT';
/** A worker that dies sooner than this after its start waits this long before it is started again. */
const RESTART_BACKOFF_MS = 1000;

type Say = (level: 'info' | 'warn' | 'error', message: string) => void;

function createSay(format: ChosenLogFormat): Say {
  return (level, message) => {
    const stream = level === 'info' ? process.stdout : process.stderr;
    stream.write(
      format === 'json'
        ? `${JSON.stringify({ level: { info: 30, warn: 40, error: 50 }[level], time: Date.now(), pid: process.pid, role: 'primary', msg: message })}\n`
        : `[primary ${process.pid}] ${message}\n`,
    );
  };
}

/**
 * WORKERS > 1: this process only supervises. It starts the lead worker (slot 1: migrations, the first-start
 * seed, recovery of a crashed server's reservations, and every background job, as `NODE_TYPE` allows) and, once
 * it listens, the other workers, which run the relay, the API and the console on the same port (node:cluster
 * hands each connection to a worker). A worker that dies is started again in its slot; one that fails before it
 * ever listened stops everything, since that is a start-up error (configuration, database). SIGTERM or SIGINT
 * stop every worker gracefully, then this process. Without Redis the primary keeps the shared counters
 * (shared-state-ipc.ts).
 */
export async function runPrimary(config: Config, format: ChosenLogFormat): Promise<void> {
  const say = createSay(format);
  const stores = config.redisConnString === '' ? createPrimarySharedState() : null;
  const slots = new Map<number, Worker>();
  let isShuttingDown = false;

  const start = (slot: number): Promise<void> =>
    new Promise((resolve) => {
      const startedAt = Date.now();
      const worker = cluster.fork({
        [WORKER_SLOT_VARIABLE]: String(slot),
        // One secret for all: a session cookie signed by one worker must be read by the others.
        SESSION_SECRET: config.sessionSecret,
      });
      slots.set(slot, worker);
      if (stores) serveSharedState(worker, stores);
      let hasListened = false;
      worker.once('listening', () => {
        hasListened = true;
        say('info', `worker ${slot} (pid ${worker.process.pid}) listening`);
        resolve();
      });
      worker.once('exit', (code, signal) => {
        if (slots.get(slot) === worker) slots.delete(slot);
        if (isShuttingDown) return;
        if (!hasListened) {
          say('error', `worker ${slot} stopped before it listened (exit ${signal ?? code}): stopping`);
          void stopAll(1);
          return;
        }
        say(
          'warn',
          `worker ${slot} (pid ${worker.process.pid}) died (exit ${signal ?? code}): starting it again`,
        );
        const wait = Date.now() - startedAt < 10_000 ? RESTART_BACKOFF_MS : 0;
        setTimeout(() => {
          if (!isShuttingDown) void start(slot);
        }, wait);
      });
    });

  const stopAll = async (exitCode: number): Promise<void> => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    const workers = [...slots.values()];
    const exited = workers.map(
      (worker) =>
        new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGTERM');
    // Each worker cuts what still runs after SHUTDOWN_TIMEOUT, settles it and exits by itself (1 when it could
    // not settle in time); one still there a second later is killed.
    const killer = setTimeout(
      () => {
        for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
      },
      config.shutdownTimeoutSeconds * 1000 + SETTLE_AFTER_CUT_MS + 1000,
    );
    await Promise.all(exited);
    clearTimeout(killer);
    process.exit(exitCode);
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!isShuttingDown) say('info', `${signal}: stopping ${slots.size} workers`);
      void stopAll(0);
    });
  }

  if (config.isSessionSecretGenerated) {
    say('warn', 'SESSION_SECRET is not set: generated one, so sessions will not survive a restart');
  }
  // The lead first: the others start once the database is migrated and seeded.
  await start(1);
  await Promise.all(Array.from({ length: config.workers - 1 }, (_, index) => start(index + 2)));
  if (!isShuttingDown) {
    say('info', `${config.workers} workers listening on ${config.host}:${config.port}`);
  }
}
