/**
 * The logs at scale: `seed` loads realistic log rows fast, `bench` measures the logs API on them.
 *
 *   npm run seed:logs -- --rows 1000000 [--database <DSN>]     (SQLite file ./data/bench-logs.db by default)
 *   npm run bench:logs -- [--database <DSN>] [--requests 40] [--export]
 *
 * A DSN is `postgres://…`, `mysql://…` or `sqlite:<path>`. The seed spreads rows over the last 90 days across
 * 200 users (a few heavy, most light), 1–3 keys each, 24 models, 12 channels and the log types in the
 * proportions a busy gateway has; bulk-loaded through the database's own driver (bench/logs-seed.ts).
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LogType, MAX_ROW_ID } from '@gatehouse/shared';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/config';
import { createMonthPartition, isLogsPartitioned, monthStart } from '../apps/server/src/db/log-partitions';
import { closeContext, createContext, type AppContext } from '../apps/server/src/context';
import type { NewLogRow } from '../apps/server/src/db/schema';
import { encodeLogCursor } from '../apps/server/src/logs/log-query';
import { bulkLoad } from './logs-seed';

const DAY = 86_400;
const USERS = 200;
const MODELS = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'o3',
  'o4-mini',
  'gpt-5',
  'gpt-5-mini',
  'claude-sonnet-4-5',
  'claude-opus-4-1',
  'claude-3-5-haiku',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'deepseek-chat',
  'deepseek-reasoner',
  'qwen-max',
  'qwen-plus',
  'glm-4.6',
  'kimi-k2',
  'mistral-large',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'dall-e-3',
  'whisper-1',
];
const KEY_NAMES = ['default', 'production', 'ci'];
const PROTOCOLS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const dsn = () => argument('database') ?? `sqlite:${path.resolve('data/bench-logs.db')}`;

function environment(): Record<string, string> {
  const database = dsn();
  return database.startsWith('sqlite:')
    ? { SQLITE_PATH: database.slice('sqlite:'.length), SESSION_SECRET: 'bench-logs-session-secret' }
    : { SQL_DSN: database, SESSION_SECRET: 'bench-logs-session-secret' };
}

async function open(): Promise<AppContext> {
  return createContext(
    loadConfig({ ...environment(), GLOBAL_API_RATE_LIMIT: '10000000', CRITICAL_RATE_LIMIT: '1000000' }),
  );
}

/** A small deterministic generator, so two seeds of the same size hold the same rows. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Skewed picks: index 0 most often (a few users and models make most of the traffic). */
const skewed = (next: () => number, count: number, power: number) => Math.floor(count * next() ** power);

function makeRow(next: () => number, index: number, createdAt: number): NewLogRow {
  const user = skewed(next, USERS, 3) + 1;
  const draw = next();
  const type =
    draw < 0.9
      ? LogType.consume
      : draw < 0.94
        ? LogType.error
        : draw < 0.97
          ? LogType.topup
          : draw < 0.99
            ? LogType.manage
            : LogType.system;
  const row: NewLogRow = {
    user_id: user + 1,
    username: `user${user}`,
    type,
    created_at: createdAt,
    content: '',
  };
  if (type !== LogType.consume && type !== LogType.error) {
    row.content = type === LogType.topup ? 'Redeemed $10.00' : 'quota changed by admin';
    row.quota = type === LogType.topup ? 5_000_000 : 0;
    return row;
  }
  const prompt = 50 + Math.floor(next() ** 2 * 8000);
  const completion = Math.floor(next() ** 2 * 2000);
  return {
    ...row,
    token_name: KEY_NAMES[(user + index) % (1 + (user % 3))]!,
    model_name: MODELS[skewed(next, MODELS.length, 2)]!,
    channel_id: 1 + skewed(next, 12, 1.5),
    prompt_tokens: prompt,
    completion_tokens: completion,
    cache_read_tokens: next() < 0.3 ? Math.floor(prompt * 0.6) : 0,
    reasoning_tokens: next() < 0.2 ? Math.floor(completion * 0.5) : 0,
    quota: type === LogType.error ? 0 : prompt + completion * 4,
    elapsed_time: 200 + Math.floor(next() * 20_000),
    first_token_ms: next() < 0.7 ? 150 + Math.floor(next() * 2000) : 0,
    is_stream: next() < 0.7 ? 1 : 0,
    request_id: `req-${index.toString(36)}`,
    inbound_protocol: PROTOCOLS[index % PROTOCOLS.length]!,
    model_ratio: 1.25,
    completion_ratio: 4,
    group_ratio: 1,
    content:
      type === LogType.error ? '429 rate limited by the upstream' : 'model ratio 1.25, completion ratio 4',
  };
}

async function seed(): Promise<void> {
  const rows = Number(argument('rows') ?? 1_000_000);
  if (!Number.isSafeInteger(rows) || rows <= 0) throw new Error('--rows must be a positive whole number');
  // The server's own start first: migrations, root; then the bulk load through the driver (bench/logs-seed.ts).
  const now = Math.floor(Date.now() / 1000);
  const start = now - 90 * DAY;
  const setup = await open();
  // PostgreSQL: the month partitions a server running for those 90 days would have made.
  if (await isLogsPartitioned(setup.db)) {
    for (let month = monthStart(start); month < now; month = monthStart(month, 1)) {
      await createMonthPartition(setup.db, month);
    }
  }
  await closeContext(setup);
  const next = random(16);
  const step = (90 * DAY) / rows;
  const seconds = await bulkLoad(dsn(), rows, (index) =>
    makeRow(next, index, Math.floor(start + index * step)),
  );
  console.log(
    `\nseeded ${rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s ` +
      `(${Math.round(rows / seconds).toLocaleString('en')} rows/s)`,
  );
  // Fresh statistics, as a database that grew over months has: the planner picks the index per filter from them.
  const context = await open();
  const analyzing = performance.now();
  await (dsn().startsWith('mysql') ? sql`analyze table logs` : sql`analyze logs`).execute(context.db);
  console.log(`analyze: ${((performance.now() - analyzing) / 1000).toFixed(1)} s`);
  await closeContext(context);
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
};

async function bench(): Promise<void> {
  const requests = Number(argument('requests') ?? 40);
  const context = await open();
  const app = await buildApp(context);
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username: 'root', password: '123456' },
  });
  const cookie = login.cookies.find((candidate) => candidate.name === 'gatehouse_session');
  if (!cookie) throw new Error(`root could not sign in: ${login.body}`);
  const headers = { cookie: `${cookie.name}=${cookie.value}` };
  const { db } = context;
  const bounds = await db
    .selectFrom('logs')
    .select((eb) => [
      eb.fn.min('created_at').as('first'),
      eb.fn.max('created_at').as('last'),
      eb.fn.countAll().as('count'),
    ])
    .executeTakeFirstOrThrow();
  const first = Number(bounds.first);
  const last = Number(bounds.last);
  console.log(`${Number(bounds.count).toLocaleString('en')} log rows`);
  // A deep page: a cursor two thirds of the way back, i.e. past most of the rows any filter matches.
  const deepCursor = encodeLogCursor({ createdAt: Math.floor(last - (last - first) * 0.66), id: MAX_ROW_ID });
  const day = `start_timestamp=${last - 3 * DAY}&end_timestamp=${last - 2 * DAY}`;
  const filters: Array<[string, string]> = [
    ['none', ''],
    ['username (a heavy user)', 'username=user0'],
    ['username (a light user)', 'username=user190'],
    ['token_name', 'token_name=ci'],
    ['model_name (common)', 'model_name=gpt-4o'],
    ['model_name (rare)', 'model_name=whisper-1'],
    ['channel', 'channel=7'],
    ['type = error', `type=${LogType.error}`],
    ['type = top-up', `type=${LogType.topup}`],
    ['time range (one day)', day],
    ['user + model + day', `username=user3&model_name=gpt-4o&${day}`],
  ];
  const time = async (url: string) => {
    const samples: number[] = [];
    for (let index = 0; index < requests; index += 1) {
      const began = performance.now();
      const response = await app.inject({ url, headers });
      samples.push(performance.now() - began);
      if (response.statusCode !== 200 || !response.json<{ success: boolean }>().success)
        throw new Error(`${url}: ${response.body.slice(0, 200)}`);
    }
    return percentile(samples, 0.95);
  };
  const lines = [
    '| filter | first page p95 | deep page by cursor p95 | p=20000 by offset (200,000 rows in) p95 |',
    '|---|--:|--:|--:|',
  ];
  for (const [name, query] of filters) {
    const base = `/api/log/?size=10${query ? `&${query}` : ''}`;
    const firstPage = await time(base);
    const deep = await time(`${base}&cursor=${deepCursor}`);
    const offset = await time(`${base}&p=20000`);
    lines.push(`| ${name} | ${firstPage.toFixed(1)} ms | ${deep.toFixed(1)} ms | ${offset.toFixed(1)} ms |`);
    console.log(lines.at(-1));
  }
  if (process.argv.includes('--export')) lines.push('', await measureExport(app, headers));
  console.log(`\n${lines.join('\n')}`);
  await app.close();
  await closeContext(context);
}

/** Reads the whole CSV export over HTTP, sampling this process's RSS, and says how big it got. */
async function measureExport(
  app: Awaited<ReturnType<typeof buildApp>>,
  headers: Record<string, string>,
): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const began = performance.now();
  let bytes = 0;
  let lines = 0;
  await new Promise<void>((resolve, reject) => {
    httpRequest({ port, host: '127.0.0.1', path: '/api/log/export', headers }, (response) => {
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines += 1;
      });
      response.on('end', resolve);
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
  clearInterval(sampler);
  const mb = (value: number) => `${(value / 2 ** 20).toFixed(0)} MB`;
  return (
    `export: ${(lines - 1).toLocaleString('en')} rows, ${mb(bytes)} of CSV in ${((performance.now() - began) / 1000).toFixed(1)} s; ` +
    `RSS ${mb(baseline)} before, peak ${mb(peak)} during (+${mb(peak - baseline)})`
  );
}

const command = process.argv[2];
if (command === 'seed') await seed();
else if (command === 'bench') await bench();
else {
  console.error(
    'usage: bench/logs.ts seed --rows N [--database DSN] | bench [--database DSN] [--requests N] [--export]',
  );
  process.exitCode = 2;
}
