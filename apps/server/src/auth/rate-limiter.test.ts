import { afterAll, describe, expect, it } from 'vitest';
import { connectDeadRedis } from '../../test/support/dead-redis';
import { FallbackRateLimiter, RedisRateLimiter } from './rate-limiter';

const deadRedis = connectDeadRedis();
afterAll(() => deadRedis.disconnect());

describe('API rate limits when Redis is unreachable', () => {
  it('count on the node’s own counters, still refusing past the limit, with one warning in the log', async () => {
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => void warnings.push(message), info: () => undefined };
    const limiter = new FallbackRateLimiter(new RedisRateLimiter(deadRedis), log);
    const results = [];
    for (let index = 0; index < 3; index += 1) results.push(await limiter.hit('critical:1.2.3.4', 2, 60_000));
    expect(results.map((result) => result.isAllowed)).toEqual([true, true, false]);
    expect(warnings).toEqual(['Redis unreachable: the API rate limits are counted by this node alone']);
  });
});
