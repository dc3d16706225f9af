import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config';
import { createDatabase, type Db } from './db/database';
import { ensureLogPartitions } from './db/log-partitions';
import { migrateToLatest } from './db/migrate';
import { OptionStore } from './options/option-store';
import { AppEventBus } from './events';
import type { VerificationCodeStore } from './auth/verification-codes';
import { createAuthServices, type AuthServices } from './auth/auth-services';
import { seedDatabase } from './users/seed';
import { ReservationKeeper } from './billing/reservation-keeper';
import { ChangeFeed } from './sync/change-feed';
import { createWorkerSharedState } from './workers/shared-state-ipc';

/** Everything a route or service needs, built once at start and passed down (no globals). */
export interface AppContext {
  config: Config;
  db: Db;
  options: OptionStore;
  /** the same store as auth.verificationCodes (in Redis when configured) */
  verificationCodes: VerificationCodeStore;
  /** rate-limit counters, OAuth states and mailed codes (in Redis when configured) */
  auth: AuthServices;
  events: AppEventBus;
  /** changes announced to and heard from the other instances on the same database (within a second) */
  changes: ChangeFeed;
  /** this server's quota reservation records: their owner name, lease renewal and recovery */
  reservations: ReservationKeeper;
  /** background work to stop on close (timers, pools) */
  closers: Array<() => Promise<void> | void>;
}

export async function createContext(config: Config, logger?: FastifyBaseLogger): Promise<AppContext> {
  const db = await createDatabase(config);
  if (config.isMasterNode) {
    await migrateToLatest(db);
    // PostgreSQL: this month's and the next months' log partitions, before a settlement needs them.
    await ensureLogPartitions(db, Math.floor(Date.now() / 1000));
  }
  const options = new OptionStore(db);
  await options.reload();
  const closers: AppContext['closers'] = [];
  const reservations = new ReservationKeeper(db, logger ?? console);
  // Before anything is served: what a crashed server held goes back (its answers never ended).
  if (config.isMasterNode) await reservations.recoverAtStart();
  reservations.start();
  closers.push(() => reservations.stop());
  // Several workers without Redis share the primary's counters and one-time states over IPC.
  const auth =
    cluster.isWorker && config.redisConnString === ''
      ? createWorkerSharedState()
      : createAuthServices(config, closers, logger);
  const context: AppContext = {
    config,
    db,
    options,
    verificationCodes: auth.verificationCodes,
    auth,
    events: new AppEventBus(),
    changes: new ChangeFeed(db, logger ?? console),
    reservations,
    closers,
  };
  if (config.isMasterNode) await seedDatabase(context, logger);
  announceChanges(context, logger);
  await context.changes.start();
  closers.push(() => context.changes.stop());
  // The safety net: a full reload now and then, whatever the change feed said.
  const syncTimer = setInterval(() => {
    options.reload().catch((error: unknown) => logger?.error({ err: error }, 'option reload failed'));
  }, config.syncFrequencySeconds * 1000);
  syncTimer.unref();
  context.closers.push(() => clearInterval(syncTimer));
  return context;
}

/** This instance's changes go out to the others; theirs to options come in (the relay listens for the rest). */
function announceChanges(context: AppContext, logger?: FastifyBaseLogger): void {
  const { events, changes, options } = context;
  events.on('channelsChanged', () => void changes.announce('channels'));
  events.on('userChanged', () => void changes.announce('users'));
  events.on('keysChanged', () => void changes.announce('keys'));
  options.onWrite(() => void changes.announce('options'));
  changes.on('options', () => {
    options.reload().catch((error: unknown) => logger?.error({ err: error }, 'option reload failed'));
  });
}

export async function closeContext(context: AppContext): Promise<void> {
  for (const close of context.closers.reverse()) await close();
  await context.db.destroy();
}
