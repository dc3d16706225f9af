import type { FastifyBaseLogger } from 'fastify';
import { Agent } from '../http/undici-client';
import type { AppContext } from '../context';
import { SettlementLedger } from '../billing/settlement-ledger';
import { sendQuotaReminder } from '../billing/quota-reminder';
import { ChannelCache } from './channel-cache';
import { CredentialCache } from './credential-cache';
import { KeyCache } from './key-cache';
import type { RelayKeyCache } from './key-auth';

/** The relay's long-lived parts, one set per context: built on first use, stopped with the context. */
export interface RelayRuntime {
  context: AppContext;
  channels: ChannelCache;
  keys: RelayKeyCache;
  ledger: SettlementLedger;
  /** access tokens adapters derive from channel keys (Vertex, Baidu), shared by all requests */
  credentials: CredentialCache;
  /** keep-alive connection pools per upstream origin */
  dispatcher: Agent;
  /** the relay stories under way (runRelay): the runtime closes only once they are all settled */
  stories: RunningStories;
  log: FastifyBaseLogger;
}

/**
 * Counts the relay stories under way. A stopping server closes its connections first and its context then;
 * a story whose client was cut at the stop (SHUTDOWN_TIMEOUT) still bills and records its settlement after
 * that, so the ledger must not close before the last story has ended.
 */
export class RunningStories {
  private count = 0;
  private waiters: Array<() => void> = [];

  enter(): void {
    this.count += 1;
  }

  leave(): void {
    this.count -= 1;
    if (this.count > 0 || this.waiters.length === 0) return;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once no story is under way. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

const runtimes = new WeakMap<AppContext, RelayRuntime>();

export function getRelayRuntime(context: AppContext, log: FastifyBaseLogger): RelayRuntime {
  const existing = runtimes.get(context);
  if (existing) return existing;
  const channels = new ChannelCache(context.db, log);
  const stopListening = context.events.on('channelsChanged', () => void channels.reload());
  const keys: RelayKeyCache = new KeyCache();
  const stopListeningToUsers = context.events.on('userChanged', (userId) => keys.forgetUser(userId));
  // Other instances' changes (and this one's, heard back): within a second, not SYNC_FREQUENCY.
  const stopHearing = [
    context.changes.on('channels', () => void channels.reload()),
    context.changes.on('keys', () => keys.clear()),
    context.changes.on('users', () => keys.clear()),
  ];
  const syncTimer = setInterval(() => void channels.reload(), context.config.syncFrequencySeconds * 1000);
  syncTimer.unref();
  const ledger = new SettlementLedger(
    context.db,
    log,
    () => context.options.getNumber('QuotaRemindThreshold'),
    (crossing) => void sendQuotaReminder(context.options, crossing, log),
  );
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connect: { timeout: 10_000 } });
  const credentials = new CredentialCache();
  const stories = new RunningStories();
  const runtime: RelayRuntime = { context, channels, keys, ledger, credentials, dispatcher, stories, log };
  runtimes.set(context, runtime);
  context.closers.push(async () => {
    stopListening();
    stopListeningToUsers();
    for (const stop of stopHearing) stop();
    clearInterval(syncTimer);
    await stories.idle();
    await ledger.close();
    await dispatcher.close();
  });
  return runtime;
}

/** The runtime of a context whose relay is running (tests flush its ledger through this). */
export function findRelayRuntime(context: AppContext): RelayRuntime | null {
  return runtimes.get(context) ?? null;
}
