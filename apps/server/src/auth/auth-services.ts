import type * as IoRedis from 'ioredis';
import type { Config } from '../config/config';
import type { FastifyBaseLogger } from 'fastify';
import { lazyPackage } from '../lazy-package';
import { FallbackLimitCounters } from '../limits/fallback-limit-counters';
import { MemoryLimitCounters, RedisLimitCounters, type LimitCounters } from '../limits/limit-counters';
import { MemoryOAuthStateStore, RedisOAuthStateStore, type OAuthStateStore } from './oauth-state-store';
import { FallbackRateLimiter, MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limiter';
import {
  MemoryVerificationCodes,
  RedisVerificationCodes,
  type VerificationCodeStore,
} from './verification-codes';

/** Loaded only when REDIS_CONN_STRING is set. */
const ioredis = lazyPackage<typeof IoRedis>('ioredis');

/** Short-lived shared state of sign-in: rate-limit counters, OAuth states and mailed codes. */
export interface AuthServices {
  rateLimiter: RateLimiter;
  oauthStates: OAuthStateStore;
  verificationCodes: VerificationCodeStore;
  /** the relay's rate-limit, parallel-request and budget counters of keys and users */
  limitCounters: LimitCounters;
}

/**
 * In-process for a single instance; in Redis when REDIS_CONN_STRING is set, so that limits, OAuth
 * callbacks and mailed codes work whichever instance a request lands on.
 */
export function createAuthServices(
  config: Config,
  closers: Array<() => Promise<void> | void>,
  logger?: FastifyBaseLogger,
): AuthServices {
  if (config.redisConnString === '') {
    return {
      rateLimiter: new MemoryRateLimiter(),
      oauthStates: new MemoryOAuthStateStore(),
      verificationCodes: new MemoryVerificationCodes(),
      limitCounters: new MemoryLimitCounters(),
    };
  }
  const redis = new (ioredis().Redis)(config.redisConnString, {
    // Every key this server writes (in scripts too) starts with the deployment's prefix, so several
    // deployments can share one Redis without counting each other's requests.
    keyPrefix: config.redisKeyPrefix,
    // Fail fast instead of queueing requests behind a dead Redis.
    connectTimeout: 2000,
    commandTimeout: 2000,
    maxRetriesPerRequest: 1,
  });
  // Connection errors surface on the commands that need Redis; this keeps them from being unhandled.
  redis.on('error', () => undefined);
  closers.push(async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return {
    rateLimiter: new FallbackRateLimiter(new RedisRateLimiter(redis), logger),
    oauthStates: new RedisOAuthStateStore(redis),
    verificationCodes: new RedisVerificationCodes(redis),
    limitCounters: new FallbackLimitCounters(new RedisLimitCounters(redis), logger),
  };
}
