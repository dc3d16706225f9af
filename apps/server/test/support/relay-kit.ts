import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { ChannelType, LogType, Role, TokenStatus } from '@gatehouse/shared';
import { rewriteAbilities } from '../../src/channels/abilities';
import { findRelayRuntime } from '../../src/relay/relay-runtime';
import { hashPassword } from '../../src/auth/password';
import { insertUser } from '../../src/users/user-repository';
import type { LogRow, UserRow } from '../../src/db/schema';
import type { BuildAppOptions } from '../../src/app';
import { createTestApp, type TestApp } from '../test-app';
import type { OpenAIUpstream } from './openai-upstream';

export interface KeyOptions {
  remainQuota?: number;
  isUnlimited?: boolean;
  models?: string;
  subnet?: string;
  status?: number;
  expiredTime?: number;
  name?: string;
}

export interface ChannelOptions {
  upstream?: OpenAIUpstream;
  baseUrl?: string;
  type?: number;
  key?: string;
  name?: string;
  models?: string;
  group?: string;
  priority?: number;
  weight?: number;
  modelMapping?: Record<string, string>;
  other?: string;
  status?: number;
}

/** The gateway on a real port with helpers to seed users, keys and channels straight into its database. */
export interface RelayKit {
  test: TestApp;
  /** http://127.0.0.1:port */
  gatewayUrl: string;
  createUser(options?: { quota?: number; group?: string; role?: number; status?: number }): Promise<UserRow>;
  /** answers the key as a client sends it: sk-… */
  createKey(userId: number, options?: KeyOptions): Promise<{ id: number; key: string }>;
  createChannel(options: ChannelOptions): Promise<number>;
  /** the official SDK pointed at the gateway, without its own retries */
  client(key: string): OpenAI;
  /** writes the batched settlements (counters, balance differences, logs) now */
  settle(): Promise<void>;
  /** the user's consumption logs once the settlements are written, newest first */
  consumeLogs(userId: number): Promise<LogRow[]>;
  /** the newest consumption log of any user, once the settlements are written */
  lastConsumeLog(): Promise<LogRow>;
  userQuota(userId: number): Promise<number>;
  close(): Promise<void>;
}

let counter = 0;

export async function startRelayKit(
  env: Record<string, string> = {},
  appOptions: BuildAppOptions = {},
): Promise<RelayKit> {
  const test = await createTestApp(env, appOptions);
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  const { db } = test.context;
  const passwordHash = await hashPassword('password123');

  return {
    test,
    gatewayUrl,
    async createUser(options = {}) {
      counter += 1;
      return insertUser(db, {
        username: `relay${process.pid % 1000}u${counter}`.slice(0, 12),
        password: passwordHash,
        role: options.role ?? Role.common,
        status: options.status ?? 1,
        quota: options.quota ?? 1_000_000,
        group: options.group ?? 'default',
      });
    },
    async createKey(userId, options = {}) {
      counter += 1;
      const key = `testkey${counter}x${Math.random().toString(36).slice(2, 12)}`;
      const now = Math.floor(Date.now() / 1000);
      await db
        .insertInto('tokens')
        .values({
          user_id: userId,
          key,
          name: options.name ?? `key ${counter}`,
          status: options.status ?? TokenStatus.enabled,
          created_time: now,
          accessed_time: now,
          expired_time: options.expiredTime ?? -1,
          remain_quota: options.remainQuota ?? 1_000_000,
          unlimited_quota: (options.isUnlimited ?? true) ? 1 : 0,
          models: options.models ?? '',
          subnet: options.subnet ?? '',
        })
        .execute();
      // Read back by key: PostgreSQL reports no insert id.
      const row = await db.selectFrom('tokens').select('id').where('key', '=', key).executeTakeFirstOrThrow();
      return { id: row.id, key: `sk-${key}` };
    },
    async createChannel(options) {
      counter += 1;
      const values = {
        type: options.type ?? ChannelType.openai,
        key: options.key ?? `sk-channel-secret-${counter}`,
        name: options.name ?? `channel ${counter}`,
        status: options.status ?? 1,
        base_url: options.baseUrl ?? options.upstream?.url ?? '',
        models: options.models ?? 'gpt-4o-mini',
        group: options.group ?? 'default',
        priority: options.priority ?? 0,
        weight: options.weight ?? 0,
        model_mapping: options.modelMapping ? JSON.stringify(options.modelMapping) : '',
        other: options.other ?? '',
        created_time: Math.floor(Date.now() / 1000),
      };
      await db.insertInto('channels').values(values).execute();
      const { id } = await db
        .selectFrom('channels')
        .select('id')
        .where('name', '=', values.name)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await rewriteAbilities(db, { id, ...values });
      test.context.events.emit('channelsChanged');
      return id;
    },
    client(key) {
      return new OpenAI({ apiKey: key, baseURL: `${gatewayUrl}/v1`, maxRetries: 0 });
    },
    async settle() {
      await findRelayRuntime(test.context)?.ledger.flush();
    },
    async consumeLogs(userId) {
      await findRelayRuntime(test.context)?.ledger.flush();
      return test.context.db
        .selectFrom('logs')
        .selectAll()
        .where('type', '=', LogType.consume)
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute();
    },
    async lastConsumeLog() {
      await findRelayRuntime(test.context)?.ledger.flush();
      return test.context.db
        .selectFrom('logs')
        .selectAll()
        .where('type', '=', LogType.consume)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
    },
    async userQuota(userId) {
      const row = await db
        .selectFrom('users')
        .select('quota')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.quota);
    },
    close: () => test.close(),
  };
}
