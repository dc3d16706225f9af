import bcrypt from 'bcryptjs';
import { Kysely, SqliteDialect, sql } from 'kysely';
import Sqlite from 'libsql';
import { openSource, type SourceDb, type SourceKind } from '../../src/import/one-api-source';

/**
 * one-api and new-api databases as their servers create them: the tables written out from the gorm tags of
 * their Go models (songquanpeng/one-api v0.6, QuantumNous/new-api 0.9), for SQLite, PostgreSQL and MySQL,
 * with rows like a running installation has.
 */
export type Product = 'one-api' | 'new-api';

type ColumnType =
  'id' | 'int' | 'bool' | 'double' | 'text' | 'time' | `varchar(${number})` | `char(${number})`;
type Column = [name: string, type: ColumnType, extra?: string];

interface TableSpec {
  name: string;
  columns: Column[];
  primaryKey?: string[];
  unique?: string[];
}

const oneApiTables: TableSpec[] = [
  {
    name: 'users',
    columns: [
      ['id', 'id'],
      ['username', 'varchar(191)'],
      ['password', 'text', 'NOT NULL'],
      ['display_name', 'varchar(191)'],
      ['role', 'int', 'DEFAULT 1'],
      ['status', 'int', 'DEFAULT 1'],
      ['email', 'varchar(191)'],
      ['github_id', 'varchar(191)'],
      ['wechat_id', 'varchar(191)'],
      ['lark_id', 'varchar(191)'],
      ['oidc_id', 'varchar(191)'],
      ['access_token', 'char(32)'],
      ['quota', 'int', 'DEFAULT 0'],
      ['used_quota', 'int', 'DEFAULT 0'],
      ['request_count', 'int', 'DEFAULT 0'],
      ['group', 'varchar(32)', "DEFAULT 'default'"],
      ['aff_code', 'varchar(32)'],
      ['inviter_id', 'int'],
    ],
    unique: ['username', 'access_token', 'aff_code'],
  },
  {
    name: 'tokens',
    columns: [
      ['id', 'id'],
      ['user_id', 'int'],
      ['key', 'char(48)'],
      ['status', 'int', 'DEFAULT 1'],
      ['name', 'varchar(191)'],
      ['created_time', 'int'],
      ['accessed_time', 'int'],
      ['expired_time', 'int', 'DEFAULT -1'],
      ['remain_quota', 'int', 'DEFAULT 0'],
      ['unlimited_quota', 'bool', 'DEFAULT false'],
      ['used_quota', 'int', 'DEFAULT 0'],
      ['models', 'text'],
      ['subnet', 'text'],
    ],
    unique: ['key'],
  },
  {
    name: 'channels',
    columns: [
      ['id', 'id'],
      ['type', 'int', 'DEFAULT 0'],
      ['key', 'text', 'NOT NULL'],
      ['status', 'int', 'DEFAULT 1'],
      ['name', 'varchar(191)'],
      ['weight', 'int', 'DEFAULT 0'],
      ['created_time', 'int'],
      ['test_time', 'int'],
      ['response_time', 'int'],
      ['base_url', 'varchar(191)', "DEFAULT ''"],
      ['other', 'text'],
      ['balance', 'double'],
      ['balance_updated_time', 'int'],
      ['models', 'text'],
      ['group', 'varchar(32)', "DEFAULT 'default'"],
      ['used_quota', 'int', 'DEFAULT 0'],
      ['model_mapping', 'varchar(1024)', "DEFAULT ''"],
      ['priority', 'int', 'DEFAULT 0'],
      ['config', 'text'],
      ['system_prompt', 'text'],
    ],
  },
  {
    name: 'abilities',
    columns: [
      ['group', 'varchar(32)', 'NOT NULL'],
      ['model', 'varchar(191)', 'NOT NULL'],
      ['channel_id', 'int', 'NOT NULL'],
      ['enabled', 'bool'],
      ['priority', 'int', 'DEFAULT 0'],
    ],
    primaryKey: ['group', 'model', 'channel_id'],
  },
  {
    name: 'redemptions',
    columns: [
      ['id', 'id'],
      ['user_id', 'int'],
      ['key', 'char(32)'],
      ['status', 'int', 'DEFAULT 1'],
      ['name', 'varchar(191)'],
      ['quota', 'int', 'DEFAULT 100'],
      ['created_time', 'int'],
      ['redeemed_time', 'int'],
    ],
    unique: ['key'],
  },
  {
    name: 'options',
    columns: [
      ['key', 'varchar(191)', 'NOT NULL'],
      ['value', 'text'],
    ],
    primaryKey: ['key'],
  },
  {
    name: 'logs',
    columns: [
      ['id', 'id'],
      ['user_id', 'int'],
      ['created_at', 'int'],
      ['type', 'int'],
      ['content', 'text'],
      ['username', 'varchar(191)', "DEFAULT ''"],
      ['token_name', 'varchar(191)', "DEFAULT ''"],
      ['model_name', 'varchar(191)', "DEFAULT ''"],
      ['quota', 'int', 'DEFAULT 0'],
      ['prompt_tokens', 'int', 'DEFAULT 0'],
      ['completion_tokens', 'int', 'DEFAULT 0'],
      ['channel_id', 'int'],
      ['request_id', 'varchar(191)', "DEFAULT ''"],
      ['elapsed_time', 'int', 'DEFAULT 0'],
      ['is_stream', 'bool', 'DEFAULT false'],
      ['system_prompt_reset', 'bool', 'DEFAULT false'],
    ],
  },
];

function edit(tables: TableSpec[], name: string, change: (table: TableSpec) => TableSpec): TableSpec[] {
  return tables.map((table) => (table.name === name ? change(table) : table));
}
const drop = (columns: Column[], names: string[]) => columns.filter(([name]) => !names.includes(name));

let newApiTables = edit(oneApiTables, 'users', (table) => ({
  ...table,
  columns: [
    ...drop(table.columns, ['lark_id']),
    ['discord_id', 'varchar(191)'],
    ['telegram_id', 'varchar(191)'],
    ['aff_count', 'int', 'DEFAULT 0'],
    ['aff_quota', 'int', 'DEFAULT 0'],
    ['aff_history', 'int', 'DEFAULT 0'],
    ['deleted_at', 'time'],
    ['linux_do_id', 'varchar(191)'],
    ['setting', 'text'],
    ['remark', 'varchar(255)'],
    ['stripe_customer', 'varchar(64)'],
    ['created_at', 'int'],
    ['last_login_at', 'int', 'DEFAULT 0'],
  ],
}));
newApiTables = edit(newApiTables, 'tokens', (table) => ({
  ...table,
  columns: [
    ...drop(table.columns, ['models', 'subnet', 'key']),
    ['key', 'varchar(128)'],
    ['model_limits_enabled', 'bool'],
    ['model_limits', 'text'],
    ['allow_ips', 'text', "DEFAULT ''"],
    ['group', 'text', "DEFAULT ''"],
    ['cross_group_retry', 'bool'],
    ['deleted_at', 'time'],
  ],
}));
newApiTables = edit(newApiTables, 'channels', (table) => ({
  ...table,
  columns: [
    ...drop(table.columns, ['config', 'system_prompt', 'model_mapping', 'base_url']),
    ['base_url', 'text'],
    ['model_mapping', 'text'],
    ['openai_organization', 'text'],
    ['test_model', 'text'],
    ['status_code_mapping', 'varchar(1024)', "DEFAULT ''"],
    ['auto_ban', 'int', 'DEFAULT 1'],
    ['other_info', 'text'],
    ['tag', 'varchar(191)'],
    ['setting', 'text'],
    ['param_override', 'text'],
    ['header_override', 'text'],
    ['remark', 'varchar(255)'],
    ['channel_info', 'text'],
    ['settings', 'text'],
  ],
}));
newApiTables = edit(newApiTables, 'abilities', (table) => ({
  ...table,
  columns: [...table.columns, ['weight', 'int', 'DEFAULT 0'], ['tag', 'varchar(191)']],
}));
newApiTables = edit(newApiTables, 'redemptions', (table) => ({
  ...table,
  columns: [...table.columns, ['used_user_id', 'int'], ['deleted_at', 'time'], ['expired_time', 'int']],
}));
newApiTables = edit(newApiTables, 'logs', (table) => ({
  ...table,
  columns: [
    ...drop(table.columns, ['request_id', 'elapsed_time', 'system_prompt_reset']),
    ['use_time', 'int', 'DEFAULT 0'],
    ['token_id', 'int', 'DEFAULT 0'],
    ['group', 'varchar(191)'],
    ['ip', 'varchar(191)', "DEFAULT ''"],
    ['other', 'text'],
  ],
}));

function columnSql(kind: SourceKind, [name, type, extra]: Column): string {
  const quoted = kind === 'mysql' ? `\`${name}\`` : `"${name}"`;
  const types: Record<string, Record<SourceKind, string>> = {
    id: {
      sqlite: 'integer PRIMARY KEY AUTOINCREMENT',
      postgres: 'bigserial PRIMARY KEY',
      mysql: 'bigint AUTO_INCREMENT PRIMARY KEY',
    },
    int: { sqlite: 'integer', postgres: 'bigint', mysql: 'bigint' },
    bool: { sqlite: 'numeric', postgres: 'boolean', mysql: 'boolean' },
    double: { sqlite: 'real', postgres: 'decimal', mysql: 'double' },
    text: { sqlite: 'text', postgres: 'text', mysql: 'longtext' },
    time: { sqlite: 'datetime', postgres: 'timestamptz', mysql: 'datetime(3)' },
  };
  const sqlType = types[type]?.[kind] ?? type;
  return `${quoted} ${sqlType}${extra ? ` ${extra}` : ''}`;
}

export function createTableStatements(product: Product, kind: SourceKind): string[] {
  const q = (name: string) => (kind === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const statements: string[] = [];
  for (const table of product === 'one-api' ? oneApiTables : newApiTables) {
    const parts = table.columns.map((column) => columnSql(kind, column));
    if (table.primaryKey) parts.push(`PRIMARY KEY (${table.primaryKey.map(q).join(', ')})`);
    statements.push(`CREATE TABLE ${q(table.name)} (${parts.join(', ')})`);
    for (const column of table.unique ?? []) {
      statements.push(
        `CREATE UNIQUE INDEX ${q(`idx_${table.name}_${column}`)} ON ${q(table.name)} (${q(column)})`,
      );
    }
  }
  return statements;
}

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

/** Creates the tables in `dsn` (an empty PostgreSQL/MySQL database) or a new SQLite file at that path. */
export async function createSourceDatabase(
  product: Product,
  kind: SourceKind,
  where: string,
): Promise<SourceDb> {
  const db: SourceDb =
    kind === 'sqlite'
      ? new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(where) }) })
      : await openSource(where);
  for (const statement of createTableStatements(product, kind)) await sql.raw(statement).execute(db);
  return db;
}
