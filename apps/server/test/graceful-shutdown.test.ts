import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database';
import { bundleGateway, type GatewayChild } from './support/gateway-child';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import {
  askChat,
  seedUserWithKey,
  send,
  startGatewayWithChannel,
  temporarySqlite,
  waitUntil,
  type SeededKey,
} from './support/gateway-fleet';
import { settledLedger } from './support/ledger';

/**
 * SIGTERM to the real server while JSON and streamed answers are under way from a slow upstream: it takes no
 * new connection, lets every answer under way end whole and settled, and exits 0, leaving no reservation.
 */
const IN_FLIGHT = 8;
let bundle: string;
let upstream: OpenAIUpstream;
/** a stream that sends its first event, then nothing for a minute */
let stalled: OpenAIUpstream;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  bundle = await bundleGateway();
  cleanups.push(() => rmSync(path.dirname(bundle), { recursive: true, force: true }));
  upstream = await startOpenAIUpstream('slow', {
    delayMs: 800,
    chunkDelayMs: 200,
    words: ['One', ' two', ' three', ' four', ' five'],
    usage: { prompt: 10, completion: 5 },
  });
  cleanups.push(() => upstream.close());
  stalled = await startOpenAIUpstream('stalled', {
    chunkDelayMs: 60_000,
    usage: { prompt: 10, completion: 5 },
  });
  cleanups.push(() => stalled.close());
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A gateway on a SQLite file of its own with a channel to `channelTo` that every process serves. */
async function startServing(
  env: Record<string, string>,
  channelTo = upstream,
): Promise<{ gateway: GatewayChild; db: Db }> {
  const database = temporarySqlite('shutdown', cleanups);
  const { gateway, db } = await startGatewayWithChannel(
    bundle,
    database,
    env,
    { name: channelTo.name, upstreamUrl: channelTo.url },
    cleanups,
  );
  const warm = await seedUserWithKey(db);
  await waitUntil('every process serves the channel', 10_000, async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => askChat(gateway.url, warm.key)));
    return answers.every((answer) => answer.status === 200);
  });
  return { gateway, db };
}

/**
 * One chat request: whether its answer came whole. On a connection of its own, closed after the answer, or
 * (`keepAlive`) on fetch's pool, whose connections stay open for the next request.
 */
async function askWhole(
  gateway: GatewayChild,
  key: string,
  stream: boolean,
  keepAlive: boolean,
): Promise<string> {
  const url = `${gateway.url}/v1/chat/completions`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const body = JSON.stringify({
    model: 'gpt-4o',
    stream,
    max_tokens: 20,
    messages: [{ role: 'user', content: 'hi' }],
  });
  const answer = await (
    keepAlive
      ? fetch(url, { method: 'POST', headers, body }).then(async (response) => ({
          status: response.status,
          text: await response.text(),
        }))
      : send(url, { method: 'POST', headers, body })
  ).catch((error: unknown) => ({ status: 0, text: String(error) }));
  if (answer.status !== 200) return `${answer.status}: ${answer.text.slice(0, 200)}`;
  if (stream) return answer.text.endsWith('data: [DONE]\n\n') ? 'whole' : `cut: ${answer.text.slice(-80)}`;
  return answer.text.includes('One two three four five') ? 'whole' : `cut: ${answer.text.slice(-80)}`;
}

/** Whether a new connection is still taken: false once the port is closed (or answers 503 while closing). */
async function takesNewRequests(gateway: GatewayChild): Promise<boolean> {
  try {
    return (await send(`${gateway.url}/api/status`)).status === 200;
  } catch {
    return false;
  }
}

/**
 * Sends IN_FLIGHT requests (JSON and streams in turn), stops the server once all are at the upstream and checks
 * that every one ended whole and billed. Answers how long the process took to exit after the last answer.
 */
async function stopUnderLoad(
  gateway: GatewayChild,
  db: Db,
  seeded: SeededKey,
  keepAlive = false,
): Promise<number> {
  const received = upstream.received.length;
  let lastAnswerAt = 0;
  const answers = Array.from({ length: IN_FLIGHT }, (_, index) =>
    askWhole(gateway, seeded.key, index % 2 === 1, keepAlive).finally(() => (lastAnswerAt = Date.now())),
  );
  await waitUntil(
    'every request is at the upstream',
    5000,
    () => upstream.received.length === received + IN_FLIGHT,
  );
  const exited = gateway.stop().then((code) => ({ code, at: Date.now() }));
  await waitUntil('new connections are refused', 1000, async () => !(await takesNewRequests(gateway)));
  expect(await Promise.all(answers)).toEqual(Array(IN_FLIGHT).fill('whole'));
  const exit = await exited;
  expect(exit.code).toBe(0);
  // (10 + 5 × 4) × 1.25 = 37.5 → 38 per answer (gpt-4o's built-in price).
  expect(await settledLedger(db, seeded)).toEqual({ logged: 38 * IN_FLIGHT, logs: IN_FLIGHT });
  return exit.at - lastAnswerAt;
}

describe('SIGTERM while answers are under way', () => {
  it('lets them end whole and settled, then exits 0 (one process, its extra acceptors)', async () => {
    const { gateway, db } = await startServing({});
    await stopUnderLoad(gateway, db, await seedUserWithKey(db));
  }, 60_000);

  it('does the same with WORKERS=2', async () => {
    const { gateway, db } = await startServing({ WORKERS: '2' });
    await stopUnderLoad(gateway, db, await seedUserWithKey(db));
  }, 60_000);

  it('closes kept-alive connections as their answers end, not KEEP_ALIVE_TIMEOUT later', async () => {
    const { gateway, db } = await startServing({ KEEP_ALIVE_TIMEOUT: '30' });
    const lingerMs = await stopUnderLoad(gateway, db, await seedUserWithKey(db), true);
    expect(lingerMs).toBeLessThan(2000);
  }, 60_000);
});

describe('SIGTERM while a stream does not end', () => {
  for (const workers of ['1', '2']) {
    it(`cuts it after SHUTDOWN_TIMEOUT, bills what it delivered and exits 0 (WORKERS=${workers})`, async () => {
      const { gateway, db } = await startServing({ WORKERS: workers, SHUTDOWN_TIMEOUT: '2' }, stalled);
      const seeded = await seedUserWithKey(db);
      const received = stalled.received.length;
      const answer = askWhole(gateway, seeded.key, true, false);
      await waitUntil('the stream is at the upstream', 5000, () => stalled.received.length === received + 1);
      const stoppedAt = Date.now();
      const exit = await Promise.race([
        gateway.stop(),
        new Promise((resolve) => setTimeout(() => resolve('still running 10 s later'), 10_000)),
      ]);
      expect(exit).toBe(0);
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1900);
      expect(await answer).not.toBe('whole');
      // Charged for what was produced, as when a client leaves mid-stream; nothing left reserved.
      const ledger = await settledLedger(db, seeded);
      expect(ledger.logs).toBe(1);
      expect(ledger.logged).toBeGreaterThan(0);
    }, 60_000);
  }
});
