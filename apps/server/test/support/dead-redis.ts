import { Redis } from 'ioredis';

/**
 * A Redis client to port 9, where nothing listens: every command fails at once, as with a Redis that went
 * away. The caller disconnects it when done.
 */
export function connectDeadRedis(): Redis {
  const client = new Redis('redis://127.0.0.1:9', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  return client;
}
