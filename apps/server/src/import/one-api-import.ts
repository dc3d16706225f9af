import { isIP } from 'node:net';
import { Role, isKnownChannelType } from '@gatehouse/shared';
import type { Db } from '../db/database';
import type { NewLogRow } from '../db/schema';
import { rewriteAbilities } from '../channels/abilities';
import { randomText } from '../auth/password';
import { isOptionKey } from '../options/option-defaults';
import {
  ImportRefusedError,
  countRows,
  readPages,
  readRows,
  readSourceLayout,
  type SourceDb,
  type SourceRow,
} from './one-api-source';

/**
 * Copies a one-api or new-api database into ours, in one transaction of the target: any failure leaves the
 * target as it was. Collisions are never overwritten: the colliding row is skipped with a line in the report
 * (a user whose username is taken is skipped with its keys). A dry run runs the same import and rolls back.
 */

export type SourceProduct = 'one-api' | 'new-api';

export interface TableCount {
  read: number;
  imported: number;
  skipped: number;
}

export interface ImportReport {
  product: SourceProduct;
  /** what the columns present say about the source's version */
  version: string;
  dryRun: boolean;
  tables: Record<string, TableCount>;
  /** one line per row left out and why */
  skipped: string[];
  /** what was carried over differently (new codes, roles, fields we have no place for) */
  notes: string[];
}

export interface ImportOptions {
  dryRun?: boolean;
  withLogs?: boolean;
  /** called as each table starts; an error thrown here aborts the import like any other */
  onTable?: (table: string) => void | Promise<void>;
}

export { ImportRefusedError };

const REQUIRED: Record<string, string[]> = {
  users: ['id', 'username', 'password', 'role', 'status', 'quota', 'used_quota', 'aff_code'],
  tokens: ['id', 'user_id', 'key', 'status', 'remain_quota', 'unlimited_quota', 'expired_time'],
  channels: ['id', 'type', 'key', 'status', 'models', 'group'],
  abilities: ['group', 'model', 'channel_id', 'enabled'],
  redemptions: ['id', 'key', 'status', 'quota'],
  options: ['key', 'value'],
};

type Layout = Map<string, Set<string>>;

export function detectSource(layout: Layout): { product: SourceProduct; version: string } {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const present = layout.get(table);
    if (!present) missing.push(`table ${table}`);
    else for (const column of columns) if (!present.has(column)) missing.push(`${table}.${column}`);
  }
  if (missing.length > 0) {
    const expected = Object.entries(REQUIRED)
      .map(([table, columns]) => `${table}(${columns.join(', ')})`)
      .join(', ');
    throw new ImportRefusedError(
      `not a one-api or new-api database: expected the tables ${expected}; missing ${missing.join(', ')}`,
    );
  }
  const users = layout.get('users')!;
  const tokens = layout.get('tokens')!;
  const channels = layout.get('channels')!;
  const isNewApi = users.has('aff_count') || tokens.has('model_limits') || channels.has('tag');
  if (isNewApi) {
    const version = channels.has('settings')
      ? '0.8.5 or later (channels.settings)'
      : channels.has('tag')
        ? 'before 0.8.5 (channels.tag, no channels.settings)'
        : 'early (no channels.tag)';
    return { product: 'new-api', version };
  }
  const version = channels.has('config')
    ? '0.6 or later (channels.config)'
    : channels.has('priority')
      ? '0.5 (channels.priority, no channels.config)'
      : 'before 0.5 (no channels.priority)';
  return { product: 'one-api', version };
}

/** new-api numbered its channel types apart from one-api after 25; ours follow one-api. */
const NEW_API_TYPES: Record<number, number | null> = {
  2: null, // Midjourney
  4: 30, // Ollama
  5: null, // Midjourney Plus
  26: 16, // Zhipu v4 → Zhipu
  27: null, // Perplexity
  33: 33, // AWS
  34: 35, // Cohere
  35: 27, // MiniMax
  39: 37, // Cloudflare
  40: 44, // SiliconFlow
  41: 42, // Vertex AI
  42: 28, // Mistral
  43: 36, // DeepSeek
  45: 40, // VolcEngine → Doubao
  49: 34, // Coze
};

function mapChannelType(product: SourceProduct, type: number): number | null {
  let ours: number | null = type;
  if (product === 'new-api') {
    if (type in NEW_API_TYPES) ours = NEW_API_TYPES[type]!;
    else if (type > 25 && type !== 31) ours = null;
  }
  return ours !== null && isKnownChannelType(ours) ? ours : null;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const num = (value: unknown): number => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};
const flag = (value: unknown): number => (value === true || Number(value) === 1 || value === 't' ? 1 : 0);
const isDeleted = (row: SourceRow): boolean => row.deleted_at !== undefined && row.deleted_at !== null;

/** new-api's allowed IPs (one a line, single addresses) as our comma list of CIDRs. */
function allowIpsToSubnets(allowIps: string): string {
  return allowIps
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => (entry.includes('/') ? entry : `${entry}/${isIP(entry) === 6 ? 128 : 32}`))
    .join(',');
}

class Rollback extends Error {}

const LOG_CHUNK = 200;

export async function importOneApi(
  target: Db,
  source: SourceDb,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const layout = await readSourceLayout(source);
  const { product, version } = detectSource(layout);
  const report: ImportReport = {
    product,
    version,
    dryRun: Boolean(options.dryRun),
    tables: {},
    skipped: [],
    notes: [],
  };
  const count = (table: string): TableCount =>
    (report.tables[table] ??= { read: 0, imported: 0, skipped: 0 });
  const skip = (table: string, line: string) => {
    count(table).skipped += 1;
    report.skipped.push(`${table}: ${line}`);
  };
  const has = (table: string, column: string) => layout.get(table)?.has(column) ?? false;
  const now = Math.floor(Date.now() / 1000);

  try {
    await target.transaction().execute(async (trx) => {
      const db = trx as unknown as Db;
      // users
      await options.onTable?.('users');
      const userIds = new Map<number, number>();
      const taken = await db
        .selectFrom('users')
        .select([
          'username',
          'aff_code',
          'access_token',
          'role',
          'github_id',
          'wechat_id',
          'lark_id',
          'oidc_id',
        ])
        .execute();
      const usernames = new Set(taken.map((row) => row.username));
      const affCodes = new Set(taken.map((row) => row.aff_code));
      const accessTokens = new Set(taken.map((row) => row.access_token).filter(Boolean));
      const identities: Record<'github_id' | 'wechat_id' | 'lark_id' | 'oidc_id', Set<string>> = {
        github_id: new Set(taken.map((row) => row.github_id).filter(Boolean)),
        wechat_id: new Set(taken.map((row) => row.wechat_id).filter(Boolean)),
        lark_id: new Set(taken.map((row) => row.lark_id).filter(Boolean)),
        oidc_id: new Set(taken.map((row) => row.oidc_id).filter(Boolean)),
      };
      let hasRoot = taken.some((row) => row.role >= Role.root);
      const users = await readRows(source, 'users', true);
      const inviters: Array<[string, number]> = [];
      for (const user of users) {
        count('users').read += 1;
        const username = text(user.username);
        if (isDeleted(user)) {
          skip('users', `#${user.id} ${username}: deleted in the source`);
          continue;
        }
        if (username === '' || text(user.password) === '') {
          skip('users', `#${user.id}: no username or password`);
          continue;
        }
        if (usernames.has(username)) {
          skip('users', `#${user.id} ${username}: the username is taken here (its keys are skipped too)`);
          continue;
        }
        let affCode = text(user.aff_code);
        if (affCode === '' || affCodes.has(affCode)) {
          const fresh = randomText(4);
          if (affCode !== '')
            report.notes.push(`user ${username}: invite code ${affCode} is taken here; new code ${fresh}`);
          affCode = fresh;
        }
        let accessToken: string | null = text(user.access_token) || null;
        if (accessToken && accessTokens.has(accessToken)) {
          report.notes.push(
            `user ${username}: the system access token is taken here and was not carried over`,
          );
          accessToken = null;
        }
        let role = num(user.role) || Role.common;
        if (role >= Role.root && hasRoot) {
          report.notes.push(
            `user ${username}: root in the source, imported as admin (this server has its root)`,
          );
          role = Role.admin;
        }
        if (role >= Role.root) hasRoot = true;
        const ids = { github_id: '', wechat_id: '', lark_id: '', oidc_id: '' };
        for (const column of Object.keys(ids) as Array<keyof typeof ids>) {
          const value = text(user[column]);
          if (value === '') continue;
          if (identities[column].has(value)) {
            report.notes.push(
              `user ${username}: ${column} ${value} is bound to another user here and was not carried over`,
            );
            continue;
          }
          identities[column].add(value);
          ids[column] = column === 'oidc_id' ? '' : value;
          if (column === 'oidc_id') {
            report.notes.push(`user ${username}: oidc_id not carried over (ours names the issuer as well)`);
          }
        }
        await db
          .insertInto('users')
          .values({
            username,
            password: text(user.password),
            display_name: text(user.display_name).slice(0, 64),
            role,
            status: num(user.status) || 1,
            email: text(user.email),
            ...ids,
            access_token: accessToken,
            quota: num(user.quota),
            used_quota: num(user.used_quota),
            request_count: num(user.request_count),
            group: text(user.group) || 'default',
            aff_code: affCode,
            inviter_id: 0,
            created_at: num(user.created_at) || now,
          })
          .execute();
        const { id } = await db
          .selectFrom('users')
          .select('id')
          .where('username', '=', username)
          .executeTakeFirstOrThrow();
        userIds.set(num(user.id), id);
        usernames.add(username);
        affCodes.add(affCode);
        if (accessToken) accessTokens.add(accessToken);
        if (num(user.inviter_id) > 0) inviters.push([username, num(user.inviter_id)]);
        count('users').imported += 1;
      }
      for (const [username, inviter] of inviters) {
        const ours = userIds.get(inviter);
        if (ours)
          await db.updateTable('users').set({ inviter_id: ours }).where('username', '=', username).execute();
      }

      // tokens
      await options.onTable?.('tokens');
      const keys = new Set((await db.selectFrom('tokens').select('key').execute()).map((row) => row.key));
      for (const token of await readRows(source, 'tokens', true)) {
        count('tokens').read += 1;
        const key = text(token.key).replace(/^sk-/, '');
        const label = `#${token.id} ${text(token.name)}`;
        const owner = userIds.get(num(token.user_id));
        if (isDeleted(token)) skip('tokens', `${label}: deleted in the source`);
        else if (!owner) skip('tokens', `${label}: its user #${token.user_id} was not imported`);
        else if (key === '' || key.length > 64)
          skip('tokens', `${label}: the key is empty or longer than 64 characters`);
        else if (keys.has(key)) skip('tokens', `${label}: the key sk-${key.slice(0, 4)}… exists here`);
        else {
          const models = has('tokens', 'model_limits')
            ? flag(token.model_limits_enabled)
              ? text(token.model_limits)
              : ''
            : text(token.models);
          const subnet = has('tokens', 'allow_ips')
            ? allowIpsToSubnets(text(token.allow_ips))
            : text(token.subnet);
          if (text(token.group) !== '') {
            report.notes.push(
              `key ${label}: group ${text(token.group)} not carried over (keys use their user's groups)`,
            );
          }
          await db
            .insertInto('tokens')
            .values({
              user_id: owner,
              key,
              status: num(token.status) || 1,
              name: text(token.name).slice(0, 64),
              created_time: num(token.created_time),
              accessed_time: num(token.accessed_time),
              expired_time:
                token.expired_time === null || token.expired_time === undefined
                  ? -1
                  : num(token.expired_time),
              remain_quota: num(token.remain_quota),
              unlimited_quota: flag(token.unlimited_quota),
              used_quota: num(token.used_quota),
              models,
              subnet,
            })
            .execute();
          keys.add(key);
          count('tokens').imported += 1;
        }
      }

      // channels, and abilities rebuilt from them
      await options.onTable?.('channels');
      const channelIds = new Map<number, number>();
      const newApiExtras = [
        'setting',
        'settings',
        'param_override',
        'header_override',
        'status_code_mapping',
      ];
      for (const channel of await readRows(source, 'channels', true)) {
        count('channels').read += 1;
        const label = `#${channel.id} ${text(channel.name)}`;
        const type = mapChannelType(product, num(channel.type));
        if (type === null) {
          skip('channels', `${label}: ${product} channel type ${channel.type} has no counterpart here`);
          continue;
        }
        const twin = await db
          .selectFrom('channels')
          .select('id')
          .where('name', '=', text(channel.name).slice(0, 128))
          .where('type', '=', type)
          .where('base_url', '=', text(channel.base_url))
          .where('key', '=', text(channel.key))
          .executeTakeFirst();
        if (twin) {
          skip('channels', `${label}: channel #${twin.id} here has the same name, type, base URL and key`);
          continue;
        }
        const extras = newApiExtras.filter(
          (column) => text(channel[column]) !== '' && text(channel[column]) !== '{}',
        );
        if (extras.length > 0) report.notes.push(`channel ${label}: ${extras.join(', ')} not carried over`);
        const values = {
          type,
          key: text(channel.key),
          status: num(channel.status) || 1,
          name: text(channel.name).slice(0, 128),
          weight: num(channel.weight),
          created_time: num(channel.created_time),
          test_time: num(channel.test_time),
          response_time: num(channel.response_time),
          base_url: text(channel.base_url),
          other: text(channel.other),
          balance: num(channel.balance),
          balance_updated_time: num(channel.balance_updated_time),
          models: text(channel.models),
          group: text(channel.group) || 'default',
          used_quota: num(channel.used_quota),
          model_mapping: text(channel.model_mapping),
          priority: num(channel.priority),
          config: product === 'one-api' ? text(channel.config) : '',
        };
        await db.insertInto('channels').values(values).execute();
        const { id } = await db
          .selectFrom('channels')
          .select('id')
          .where('name', '=', values.name)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow();
        channelIds.set(num(channel.id), id);
        await rewriteAbilities(db, { id, ...values });
        count('channels').imported += 1;
      }
      count('abilities').read = await countRows(source, 'abilities');
      count('abilities').imported = Number(
        (
          await db
            .selectFrom('abilities')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('channel_id', 'in', channelIds.size > 0 ? [...channelIds.values()] : [-1])
            .executeTakeFirstOrThrow()
        ).n,
      );

      // redemptions
      await options.onTable?.('redemptions');
      const codes = new Set(
        (await db.selectFrom('redemptions').select('key').execute()).map((row) => row.key),
      );
      for (const code of await readRows(source, 'redemptions', true)) {
        count('redemptions').read += 1;
        const key = text(code.key);
        const label = `#${code.id} ${text(code.name)}`;
        if (isDeleted(code)) skip('redemptions', `${label}: deleted in the source`);
        else if (key === '' || key.length > 64)
          skip('redemptions', `${label}: the code is empty or too long`);
        else if (codes.has(key)) skip('redemptions', `${label}: the code exists here`);
        else {
          await db
            .insertInto('redemptions')
            .values({
              user_id: userIds.get(num(code.user_id)) ?? 0,
              key,
              status: num(code.status) || 1,
              name: text(code.name).slice(0, 64),
              quota: num(code.quota),
              created_time: num(code.created_time),
              redeemed_time: num(code.redeemed_time),
              used_user_id: userIds.get(num(code.used_user_id)) ?? 0,
            })
            .execute();
          codes.add(key);
          count('redemptions').imported += 1;
        }
      }

      // options: name for name where ours has the option
      await options.onTable?.('options');
      for (const option of await readRows(source, 'options', false)) {
        count('options').read += 1;
        const key = text(option.key);
        if (!isOptionKey(key)) {
          skip('options', `${key}: no such option here`);
          continue;
        }
        const value = text(option.value);
        const updated = await db
          .updateTable('options')
          .set({ value })
          .where('key', '=', key)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0)
          await db.insertInto('options').values({ key, value }).execute();
        count('options').imported += 1;
      }

      // logs, only when asked for
      if (options.withLogs && layout.has('logs')) {
        await options.onTable?.('logs');
        const elapsedInSeconds = has('logs', 'use_time') && !has('logs', 'elapsed_time');
        let batch: NewLogRow[] = [];
        const flush = async () => {
          if (batch.length > 0) await db.insertInto('logs').values(batch).execute();
          batch = [];
        };
        for await (const page of readPages(source, 'logs', 1000))
          for (const log of page) {
            count('logs').read += 1;
            batch.push({
              user_id: userIds.get(num(log.user_id)) ?? 0,
              created_at: num(log.created_at),
              type: num(log.type),
              content: text(log.content),
              username: text(log.username).slice(0, 64),
              token_name: text(log.token_name).slice(0, 64),
              model_name: text(log.model_name).slice(0, 255),
              quota: num(log.quota),
              prompt_tokens: num(log.prompt_tokens),
              completion_tokens: num(log.completion_tokens),
              channel_id: channelIds.get(num(log.channel_id ?? log.channel)) ?? 0,
              elapsed_time: elapsedInSeconds ? num(log.use_time) * 1000 : num(log.elapsed_time),
              is_stream: flag(log.is_stream),
              request_id: text(log.request_id).slice(0, 64),
            });
            count('logs').imported += 1;
            if (batch.length >= LOG_CHUNK) await flush();
          }
        await flush();
      } else if (layout.has('logs')) {
        report.notes.push(
          `logs: ${await countRows(source, 'logs')} rows left in the source (pass --with-logs to copy them)`,
        );
      }

      if (options.dryRun) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return report;
}

/** The report as the CLI prints it. */
export function formatReport(report: ImportReport): string {
  const lines = [
    `${report.dryRun ? 'Dry run (nothing written)' : 'Imported'} from ${report.product}, schema ${report.version}`,
    '',
    'table        read  imported  skipped',
  ];
  for (const [table, counts] of Object.entries(report.tables)) {
    lines.push(
      `${table.padEnd(12)} ${String(counts.read).padStart(4)}  ${String(counts.imported).padStart(8)}  ${String(counts.skipped).padStart(7)}`,
    );
  }
  if (report.skipped.length > 0) lines.push('', 'Skipped:', ...report.skipped.map((line) => `  ${line}`));
  if (report.notes.length > 0) lines.push('', 'Notes:', ...report.notes.map((line) => `  ${line}`));
  return lines.join('\n');
}
