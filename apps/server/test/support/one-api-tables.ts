import type { SourceKind } from '../../src/import/one-api-source';

/**
 * The tables of one-api and new-api databases as their servers create them: written out from the gorm tags of
 * their Go models (songquanpeng/one-api v0.6, QuantumNous/new-api 0.9), for SQLite, PostgreSQL and MySQL.
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
