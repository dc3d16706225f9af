import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import type { SourceDb, SourceKind } from '../../src/import/one-api-source';
import type { Product } from './one-api-tables';

export interface SeededSource {
  /** the password of every seeded user */
  password: string;
  /** a key of `alice` as a client sends it (sk-…), limited, 500000 remaining */
  aliceKey: string;
  aliceQuota: number;
}

/**
 * Rows like a running one-api/new-api has: root (collides with our seeded root), alice with a limited key
 * and bob (invited by alice) with an unlimited one, an OpenAI channel pointed at `upstreamUrl`, a Claude
 * channel, a code, options (one unknown to us) and logs.
 */
export async function seedSource(
  db: SourceDb,
  product: Product,
  kind: SourceKind,
  upstreamUrl: string,
): Promise<SeededSource> {
  const password = 'old-one-api-pw';
  // Go's bcrypt writes $2a$ hashes with cost 10, as bcryptjs does.
  const hash = await bcrypt.hash(password, 10);
  const bool = (value: boolean) => (kind === 'sqlite' ? Number(value) : value);
  const isNew = product === 'new-api';
  const user = (
    id: number,
    username: string,
    role: number,
    quota: number,
    extra: Record<string, unknown>,
  ) => ({
    id,
    username,
    password: hash,
    display_name: username,
    role,
    status: 1,
    email: `${username}@example.com`,
    github_id: '',
    wechat_id: '',
    access_token: `${username}`.padEnd(32, '0'),
    quota,
    used_quota: 1234,
    request_count: 7,
    group: 'default',
    aff_code: `${username.slice(0, 2)}Q${id}`,
    inviter_id: 0,
    ...(isNew ? { aff_count: 0, created_at: 1_700_000_000 } : { lark_id: '' }),
    ...extra,
  });
  await db
    .insertInto('users')
    .values([
      user(1, 'root', 100, 100_000_000, {}),
      user(2, 'alice', 1, 2_000_000, { github_id: 'gh-alice', group: 'vip' }),
      user(3, 'bob', 10, 300_000, { inviter_id: 2 }),
    ])
    .execute();
  const aliceKey = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl';
  const token = (
    id: number,
    userId: number,
    key: string,
    name: string,
    remain: number,
    unlimited: boolean,
  ) => ({
    id,
    user_id: userId,
    key,
    status: 1,
    name,
    created_time: 1_700_000_100,
    accessed_time: 1_700_000_200,
    expired_time: -1,
    remain_quota: remain,
    unlimited_quota: bool(unlimited),
    used_quota: 10,
    ...(isNew
      ? { model_limits_enabled: bool(false), model_limits: '', allow_ips: '', group: '' }
      : { models: '', subnet: '' }),
  });
  await db
    .insertInto('tokens')
    .values([
      token(1, 1, 'rootkeyrootkeyrootkeyrootkeyrootkeyrootkeyroot12', 'root key', 0, true),
      token(2, 2, aliceKey, 'alice key', 500_000, false),
      token(3, 3, 'bobkeybobkeybobkeybobkeybobkeybobkeybobkeybob123', 'bob key', 0, true),
    ])
    .execute();
  const channel = (
    id: number,
    type: number,
    name: string,
    models: string,
    baseUrl: string,
    extra: Record<string, unknown>,
  ) => ({
    id,
    type,
    key: `sk-upstream-${id}`,
    status: 1,
    name,
    weight: 3,
    created_time: 1_700_000_000,
    test_time: 0,
    response_time: 120,
    base_url: baseUrl,
    other: '',
    balance: 12.5,
    balance_updated_time: 0,
    models,
    group: 'default,vip',
    used_quota: 99,
    model_mapping: '',
    priority: 5,
    ...extra,
  });
  const claudeType = 14; // the same number in both
  await db
    .insertInto('channels')
    .values([
      channel(
        1,
        1,
        'openai main',
        'gpt-4o-mini,gpt-4o',
        upstreamUrl,
        isNew ? { settings: '' } : { config: '{}' },
      ),
      channel(
        2,
        claudeType,
        'claude',
        'claude-3-5-sonnet-20241022',
        '',
        isNew ? { tag: 'vendor' } : { config: '' },
      ),
      // a DeepSeek channel: 36 in one-api, 43 in new-api
      channel(3, isNew ? 43 : 36, 'deepseek', 'deepseek-chat', '', isNew ? {} : { config: '' }),
    ])
    .execute();
  await db
    .insertInto('abilities')
    .values([
      { group: 'default', model: 'gpt-4o-mini', channel_id: 1, enabled: bool(true), priority: 5 },
      { group: 'vip', model: 'gpt-4o-mini', channel_id: 1, enabled: bool(true), priority: 5 },
    ])
    .execute();
  await db
    .insertInto('redemptions')
    .values([
      {
        id: 1,
        user_id: 1,
        key: 'c0de'.padEnd(32, 'x'),
        status: 1,
        name: 'launch',
        quota: 50_000,
        created_time: 1_700_000_000,
        redeemed_time: 0,
      },
    ])
    .execute();
  await db
    .insertInto('options')
    .values([
      { key: 'QuotaPerUnit', value: '500000' },
      { key: 'SystemName', value: 'Old Gateway' },
      { key: 'SomeOneApiOnlyKnob', value: 'true' },
    ])
    .execute();
  await db
    .insertInto('logs')
    .values([
      {
        id: 1,
        user_id: 2,
        created_at: 1_700_000_300,
        type: 2,
        content: 'model ratio 0.075',
        username: 'alice',
        token_name: 'alice key',
        model_name: 'gpt-4o-mini',
        quota: 150,
        prompt_tokens: 100,
        completion_tokens: 20,
        channel_id: 1,
        is_stream: bool(false),
        ...(isNew ? { use_time: 2 } : { elapsed_time: 2000, request_id: 'req-1' }),
      },
    ])
    .execute();
  if (kind === 'postgres') {
    for (const table of ['users', 'tokens', 'channels', 'redemptions', 'logs']) {
      await sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), 100)`).execute(db);
    }
  }
  return { password, aliceKey: `sk-${aliceKey}`, aliceQuota: 2_000_000 };
}
