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
  log: FastifyBaseLogger;
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
  const runtime: RelayRuntime = { context, channels, keys, ledger, credentials, dispatcher, log };
  runtimes.set(context, runtime);
  context.closers.push(async () => {
    stopListening();
    stopListeningToUsers();
    for (const stop of stopHearing) stop();
    clearInterval(syncTimer);
    await ledger.close();
    await dispatcher.close();
  });
  return runtime;
}

/** The runtime of a context whose relay is running (tests flush its ledger through this). */
export function findRelayRuntime(context: AppContext): RelayRuntime | null {
  return runtimes.get(context) ?? null;
}
