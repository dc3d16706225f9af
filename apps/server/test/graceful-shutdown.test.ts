import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import type { Db } from '../src/db/database';
import { bundleGateway, startGatewayChild, type GatewayChild } from './support/gateway-child';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import {
  ROOT_ACCESS_TOKEN,
  askChat,
  callApi,
  openDatabase,
  seedUserWithKey,
  send,
  waitUntil,
  type SeededKey,
} from './support/gateway-fleet';
import { readLedger } from './support/ledger';

/**
 * SIGTERM to the real server while JSON and streamed answers are under way from a slow upstream: it takes no
 * new connection, lets every answer under way end whole and settled, and exits 0, leaving no reservation.
 */
const IN_FLIGHT = 8;
let bundle: string;
let upstream: OpenAIUpstream;
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
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A gateway on a SQLite file of its own with a channel to the slow upstream that every process serves. */
async function startServing(env: Record<string, string>): Promise<{ gateway: GatewayChild; db: Db }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-shutdown-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const database = { sqlDsn: '', sqlitePath: path.join(folder, 'gatehouse.db') };
  const gateway = await startGatewayChild(bundle, database, {
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_ACCESS_TOKEN,
    ...env,
  });
  cleanups.push(() => gateway.kill());
  const db = await openDatabase(database);
  cleanups.push(() => db.destroy());
  await callApi(gateway.url, 'POST', '/api/channel/', {
    type: ChannelType.openai,
    name: 'slow upstream',
    key: 'sk-upstream',
    base_url: upstream.url,
    models: 'gpt-4o',
    group: 'default',
  });
  const warm = await seedUserWithKey(db);
  await waitUntil('every process serves the channel', 10_000, async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => askChat(gateway.url, warm.key)));
    return answers.every((answer) => answer.status === 200);
  });
  return { gateway, db };
}

/** One chat request on a connection of its own: whether its answer came whole. */
async function askWhole(gateway: GatewayChild, key: string, stream: boolean): Promise<string> {
  const answer = await send(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o',
      stream,
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  }).catch((error: unknown) => ({ status: 0, text: String(error) }));
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

async function stopUnderLoad(gateway: GatewayChild, db: Db, seeded: SeededKey): Promise<void> {
  const received = upstream.received.length;
  const answers = Array.from({ length: IN_FLIGHT }, (_, index) =>
    askWhole(gateway, seeded.key, index % 2 === 1),
  );
  await waitUntil(
    'every request is at the upstream',
    5000,
    () => upstream.received.length === received + IN_FLIGHT,
  );
  const exited = gateway.stop();
  await waitUntil('new connections are refused', 1000, async () => !(await takesNewRequests(gateway)));
  expect(await Promise.all(answers)).toEqual(Array(IN_FLIGHT).fill('whole'));
  expect(await exited).toBe(0);

  const ledger = await readLedger(db, seeded.userId, seeded.tokenId);
  const balances = await db
    .selectFrom('users')
    .innerJoin('tokens', 'tokens.user_id', 'users.id')
    .select(['users.quota as userQuota', 'tokens.remain_quota as keyQuota'])
    .where('tokens.id', '=', seeded.tokenId)
    .executeTakeFirstOrThrow();
  // (10 + 5 × 4) × 1.25 = 37.5 → 38 per answer (gpt-4o's built-in price); seeded with 10 000 000 each.
  expect(ledger).toEqual({
    userUsed: 38 * IN_FLIGHT,
    tokenUsed: 38 * IN_FLIGHT,
    logged: 38 * IN_FLIGHT,
    logs: IN_FLIGHT,
  });
  expect(10_000_000 - Number(balances.userQuota)).toBe(38 * IN_FLIGHT);
  expect(10_000_000 - Number(balances.keyQuota)).toBe(38 * IN_FLIGHT);
  expect(await db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
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
});
