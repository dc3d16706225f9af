import type { Worker } from 'node:cluster';
import type { AuthServices } from '../auth/auth-services';
import { MemoryLimitCounters } from '../limits/limit-counters';
import { MemoryOAuthStateStore } from '../auth/oauth-state-store';
import { MemoryRateLimiter } from '../auth/rate-limiter';
import { MemoryVerificationCodes } from '../auth/verification-codes';

/**
 * Without Redis, several workers must still share one set of counters and one-time states, or a key's RPM would
 * be multiplied by the number of workers, and an OAuth callback or a mailed code would work only on the worker
 * that issued it. So the primary process keeps the in-memory stores and the workers call them over the cluster's
 * IPC channel: each call is one message and one answer, run by the primary one at a time on its single thread,
 * so an admission is as atomic as in a single process. With Redis, the workers use Redis and none of this runs.
 */
type ServiceName = 'rateLimiter' | 'oauthStates' | 'verificationCodes' | 'limitCounters';

interface CallMessage {
  gatehouseCall: number;
  service: ServiceName;
  method: string;
  args: unknown[];
}

interface AnswerMessage {
  gatehouseAnswer: number;
  result?: unknown;
  error?: string;
}

const isCall = (message: unknown): message is CallMessage =>
  typeof message === 'object' && message !== null && 'gatehouseCall' in message;
const isAnswer = (message: unknown): message is AnswerMessage =>
  typeof message === 'object' && message !== null && 'gatehouseAnswer' in message;

/** The stores every worker shares, held by the primary. */
export function createPrimarySharedState(): Record<ServiceName, object> {
  return {
    rateLimiter: new MemoryRateLimiter(),
    oauthStates: new MemoryOAuthStateStore(),
    verificationCodes: new MemoryVerificationCodes(),
    limitCounters: new MemoryLimitCounters(),
  };
}

/** Primary side: answers one worker's calls on the shared stores. */
export function serveSharedState(worker: Worker, stores: Record<ServiceName, object>): void {
  worker.on('message', (message: unknown) => {
    if (!isCall(message)) return;
    const store = stores[message.service] as Record<string, unknown> | undefined;
    const method = store?.[message.method];
    const answer = (reply: Omit<AnswerMessage, 'gatehouseAnswer'>) => {
      if (worker.isConnected()) worker.send({ gatehouseAnswer: message.gatehouseCall, ...reply });
    };
    if (typeof method !== 'function') {
      answer({ error: `no shared ${message.service}.${message.method}` });
      return;
    }
    Promise.resolve()
      .then(() => (method as (...args: unknown[]) => unknown).apply(store, message.args))
      .then(
        (result) => answer({ result }),
        (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

/** Worker side: the auth services as proxies of the primary's stores. */
export function createWorkerSharedState(): AuthServices {
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isAnswer(message)) return;
    const call = pending.get(message.gatehouseAnswer);
    if (!call) return;
    pending.delete(message.gatehouseAnswer);
    if (message.error !== undefined) call.reject(new Error(message.error));
    else call.resolve(message.result);
  });
  process.on('disconnect', () => {
    for (const call of pending.values()) call.reject(new Error('the primary process is gone'));
    pending.clear();
  });
  const call = (service: ServiceName, method: string, args: unknown[]) =>
    new Promise<never>((resolve, reject) => {
      if (!process.send || !process.connected) {
        reject(new Error('the primary process is gone'));
        return;
      }
      nextId += 1;
      pending.set(nextId, { resolve: resolve as (value: unknown) => void, reject });
      process.send({ gatehouseCall: nextId, service, method, args } satisfies CallMessage);
    });
  return {
    rateLimiter: { hit: (...args) => call('rateLimiter', 'hit', args) },
    oauthStates: {
      save: (...args) => call('oauthStates', 'save', args),
      take: (...args) => call('oauthStates', 'take', args),
    },
    verificationCodes: {
      ttlMs: new MemoryVerificationCodes().ttlMs,
      issue: (...args) => call('verificationCodes', 'issue', args),
      consume: (...args) => call('verificationCodes', 'consume', args),
      revoke: (...args) => call('verificationCodes', 'revoke', args),
    },
    limitCounters: {
      admit: (checks) =>
        checks.length === 0
          ? Promise.resolve({ isAdmitted: true, counters: [] })
          : call('limitCounters', 'admit', [checks]),
      adjust: (...args) => call('limitCounters', 'adjust', args),
    },
  };
}
