import {
  channelFieldsSchema,
  parseChannelConfig,
  secretChannelConfigFields,
  type AuditChange,
} from '@gatehouse/shared';
import type { ChannelRow, RedemptionRow, TokenRow, UserRow } from '../db/schema';
import { toPublicChannel } from '../channels/channel-repository';
import { isSecretOption, optionDefinitions, type OptionKey } from '../options/option-defaults';
import { toRedemption } from '../redemptions/redemption-repository';
import { toToken } from '../tokens/token-repository';
import { toPublicUser } from '../users/user-repository';
import { diffAuditFields, toAuditValue, type AuditFields } from './audit-diff';

/**
 * What the audit log compares for each kind of target, and which of those fields are secret. The id (the entry's
 * target already), creation times and counters the relay moves on its own (used quota, request counts, test
 * times, balances) are left out: they are not edits.
 */

function toAuditFields(value: object, leaveOut: readonly string[]): AuditFields {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([field]) => !leaveOut.includes(field))
      .map(([field, fieldValue]) => [field, toAuditValue(fieldValue)]),
  );
}

const USER_SECRETS = ['password', 'access_token'];
const USER_LEFT_OUT = ['id', 'used_quota', 'request_count', 'created_at'];

function userFields(row: UserRow): AuditFields {
  return {
    ...toAuditFields(toPublicUser(row), USER_LEFT_OUT),
    password: row.password,
    access_token: row.access_token,
  };
}

export function userChanges(before: UserRow | null, after: UserRow | null): AuditChange[] {
  return diffAuditFields(before && userFields(before), after && userFields(after), USER_SECRETS);
}

const CHANNEL_SECRETS = ['key', ...secretChannelConfigFields.map((field) => `config.${field}`)];

/**
 * What an admin can set on a channel (the form's fields): counters, test results and health the relay keeps
 * are not edits. The config is compared field by field below.
 */
const CHANNEL_EDITABLE = Object.keys(channelFieldsSchema.shape).filter((field) => field !== 'config');

/** The config's fields one by one, so a changed region shows while its credentials stay masked. */
function channelFields(row: ChannelRow): AuditFields {
  const config = parseChannelConfig(row.config);
  const configFields: AuditFields = config
    ? Object.fromEntries(Object.entries(config).map(([field, value]) => [`config.${field}`, value]))
    : { 'config.text': row.config };
  const channel = new Map(Object.entries(toPublicChannel(row, { withSecrets: true })));
  return {
    ...Object.fromEntries(CHANNEL_EDITABLE.map((field) => [field, toAuditValue(channel.get(field))])),
    ...configFields,
  };
}

const CHANNEL_SECRET_FIELDS = [...CHANNEL_SECRETS, 'config.text'];

export function channelChanges(before: ChannelRow | null, after: ChannelRow | null): AuditChange[] {
  return diffAuditFields(
    before && channelFields(before),
    after && channelFields(after),
    CHANNEL_SECRET_FIELDS,
  );
}

const TOKEN_LEFT_OUT = ['id', 'used_quota', 'request_count', 'created_time', 'accessed_time'];

export function tokenChanges(before: TokenRow | null, after: TokenRow | null): AuditChange[] {
  const fields = (row: TokenRow) => toAuditFields(toToken(row), TOKEN_LEFT_OUT);
  return diffAuditFields(before && fields(before), after && fields(after), ['key']);
}

/** A redemption code is worth quota to whoever types it: masked like a key. */
export function redemptionChanges(before: RedemptionRow | null, after: RedemptionRow | null): AuditChange[] {
  const fields = (row: RedemptionRow) => toAuditFields(toRedemption(row), ['id', 'user_id', 'created_time']);
  return diffAuditFields(before && fields(before), after && fields(after), ['key']);
}

/** A JSON object's entries as fields, or null when the text is not one. */
function jsonObjectFields(text: string): AuditFields | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).map(([field, value]) => [field, toAuditValue(value)]));
  } catch {
    return null;
  }
}

/**
 * An option's value; a JSON object option (prices, ratios) model by model, so changing one price shows that
 * model's old and new price rather than two copies of the whole table.
 */
export function optionChanges(key: OptionKey, before: string, after: string): AuditChange[] {
  if (isSecretOption(key)) return diffAuditFields({ value: before }, { value: after }, ['value']);
  if (optionDefinitions[key].kind === 'json') {
    const beforeFields = jsonObjectFields(before);
    const afterFields = jsonObjectFields(after);
    if (beforeFields && afterFields) {
      // Keys added or removed read as null on the other side.
      const names = [...new Set([...Object.keys(beforeFields), ...Object.keys(afterFields)])];
      const fill = (fields: AuditFields) =>
        Object.fromEntries(names.map((name) => [name, fields[name] ?? null]));
      return diffAuditFields(fill(beforeFields), fill(afterFields));
    }
  }
  return diffAuditFields({ value: before }, { value: after });
}
