import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../bench/free-port';
import { bundleGateway, type GatewayChild } from './support/gateway-child';
import { startOpenAIUpstream } from './support/openai-upstream';
import {
  askChat,
  seedUserWithKey,
  send,
  startGatewayWithChannel,
  temporarySqlite,
  waitUntil,
} from './support/gateway-fleet';

/**
 * REDIS_CONN_STRING set, and that Redis (a private redis-server, killed with SIGKILL) gone mid-run, then back:
 * the relay serves on, counting limits on the node; the management API keeps answering at once, its
 * per-address rate limits counted on the node too (a sign-in is still limited); and once Redis is back the
 * counts are shared again, by themselves. Skipped where redis-server is not installed.
 */
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A Redis of this test's own (never the shared one), without persistence; answers once it takes commands. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  cleanups.push(() => void redis.kill('SIGKILL'));
  await waitUntil('redis-server answers', 5000, () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).trim() === 'PONG';
    } catch {
      return false;
    }
  });
  return redis;
}

/** Milliseconds /api/status takes, and whether it says the limits are counted per node. */
async function status(gateway: GatewayChild): Promise<{ ms: number; isDegraded: boolean }> {
  const startedAt = Date.now();
  const answer = await send(`${gateway.url}/api/status`);
  expect(answer.status).toBe(200);
  const body = JSON.parse(answer.text) as { data: { limits_degraded: boolean } };
  return { ms: Date.now() - startedAt, isDegraded: body.data.limits_degraded };
}

async function wrongSignIn(gateway: GatewayChild): Promise<number> {
  const answer = await send(`${gateway.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: 'not-the-password' }),
  });
  return answer.status;
}

describe('Redis gone mid-run', () => {
  it('keeps the relay and the API answering at once, limits counted per node, and shares them again once back', async (context) => {
    if (!hasRedisServer()) context.skip();
    const port = await findFreePort();
    let redis = await startRedis(port);
    const upstream = await startOpenAIUpstream('redis-outage', { usage: { prompt: 10, completion: 5 } });
    cleanups.push(() => upstream.close());
    const database = temporarySqlite('redis', cleanups);
    const { gateway, db } = await startGatewayWithChannel(
      await bundleGateway(),
      database,
      { REDIS_CONN_STRING: `redis://127.0.0.1:${port}`, CRITICAL_RATE_LIMIT: '3' },
      { name: 'redis outage upstream', upstreamUrl: upstream.url },
      cleanups,
    );
    // Limited, so every request of this key is counted in Redis.
    const limited = await seedUserWithKey(db, { tokenRpm: 1000, userMaxParallel: 5 });
    await waitUntil(
      'the channel is served',
      5000,
      async () => (await askChat(gateway.url, limited.key)).status === 200,
    );
    expect(await status(gateway)).toMatchObject({ isDegraded: false });

    redis.kill('SIGKILL');
    // The first request after the loss may wait for Redis's client to give up; the next ones must not.
    expect((await askChat(gateway.url, limited.key)).status).toBe(200);
    await status(gateway);
    const timings: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      const { ms, isDegraded } = await status(gateway);
      expect(isDegraded).toBe(true);
      timings.push(ms);
    }
    expect(Math.max(...timings)).toBeLessThan(300);
    const relayed = await Promise.all(Array.from({ length: 5 }, () => askChat(gateway.url, limited.key)));
    expect(relayed.map((answer) => answer.status)).toEqual(Array(5).fill(200));
    // Sign-ins are still limited (CRITICAL_RATE_LIMIT=3), by this node alone.
    const signIns = [];
    for (let index = 0; index < 4; index += 1) signIns.push(await wrongSignIn(gateway));
    expect(signIns.at(-1)).toBe(429);
    // One warning each, in the server's log, for the operator (JSON lines are written every 200 ms).
    const warnings = () => (gateway.output().match(/Redis unreachable[^"]*/g) ?? []).sort();
    await waitUntil('the warnings are written', 2000, () => warnings().length >= 2);
    expect(warnings()).toEqual([
      'Redis unreachable: rate limits and budgets are counted by this node alone',
      'Redis unreachable: the API rate limits are counted by this node alone',
    ]);

    redis = await startRedis(port);
    // The node asks Redis again with the first limited request 10 s after the failure, and shares its counts
    // from then on.
    await waitUntil('the limits are shared again', 15_000, async () => {
      expect((await askChat(gateway.url, limited.key)).status).toBe(200);
      return !(await status(gateway)).isDegraded;
    });
    const keysInRedis = () => execFileSync('redis-cli', ['-p', String(port), '--scan'], { encoding: 'utf8' });
    expect(keysInRedis()).toMatch(/gatehouse:limit:/);
    await waitUntil('the API rate limits are counted in Redis again', 5000, async () => {
      await status(gateway);
      return /gatehouse:rate:/.test(keysInRedis());
    });
  }, 60_000);
});
