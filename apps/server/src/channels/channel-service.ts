import { MysqlAdapter, type Kysely } from 'kysely';
import { ChannelStatus, type ChannelFields } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { ChannelRow, Database } from '../db/schema';
import { fail } from '../http/envelope';
import { recordAudit, type AuditActor } from '../audit/audit-log';
import { channelChanges } from '../audit/audit-subjects';
import { rewriteAbilities, updateAbilityFields } from './abilities';
import {
  isPickFieldsUpdate,
  prepareChannelUpdate,
  prepareNewChannels,
  type ChannelUpdateRules,
  type ChannelValues,
} from './channel-input';
import { findChannelById } from './channel-repository';

export const CHANNEL_NOT_FOUND = 'Channel not found';

/** MySQL has no INSERT … RETURNING; the others do, and PostgreSQL reports no insert id without it. */
export async function insertChannelRow(db: Kysely<Database>, values: ChannelValues): Promise<number> {
  const row = { ...values, created_time: Math.floor(Date.now() / 1000) };
  if (db.getExecutor().adapter instanceof MysqlAdapter) {
    const result = await db.insertInto('channels').values(row).executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const inserted = await db.insertInto('channels').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The audit action of an edit: a status switch reads as enabling or disabling, anything else as an update. */
export function updateAction(before: ChannelRow, after: ChannelRow) {
  if (before.status === after.status) return 'channel.update' as const;
  return after.status === ChannelStatus.enabled ? ('channel.enable' as const) : ('channel.disable' as const);
}

export const auditTarget = (row: ChannelRow) => ({ type: 'channel' as const, id: row.id, name: row.name });

/**
 * POST /api/channel/: every channel of a batch and all their abilities commit together, or none does; so do
 * their audit entries.
 */
export async function createChannels(
  context: AppContext,
  fields: ChannelFields,
  audit: AuditActor,
): Promise<number[]> {
  const channels = prepareNewChannels(fields);
  const ids = await context.db.transaction().execute(async (trx) => {
    const created: number[] = [];
    for (const values of channels) {
      const id = await insertChannelRow(trx, values);
      await rewriteAbilities(trx, { id, ...values });
      created.push(id);
    }
    const rows = await trx.selectFrom('channels').selectAll().where('id', 'in', created).execute();
    await recordAudit(
      trx,
      audit,
      rows.map((row) => ({
        action: 'channel.create',
        target: auditTarget(row),
        changes: channelChanges(null, row),
      })),
    );
    return created;
  });
  context.events.emit('channelsChanged');
  return ids;
}

/** PUT /api/channel/: one field from the list, or the whole form; abilities follow in the same transaction. */
export async function updateChannel(
  context: AppContext,
  id: number,
  fields: ChannelFields,
  audit: AuditActor,
  rules: ChannelUpdateRules,
): Promise<ChannelRow> {
  const updated = await context.db.transaction().execute(async (trx) => {
    const stored = await trx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    if (!stored) return fail(CHANNEL_NOT_FOUND);
    if (isPickFieldsUpdate(fields)) {
      const pick = {
        status: fields.status ?? stored.status,
        priority: fields.priority ?? Number(stored.priority),
        weight: fields.weight ?? stored.weight,
      };
      await trx.updateTable('channels').set(pick).where('id', '=', id).execute();
      await updateAbilityFields(trx, { id, ...pick });
    } else {
      const values = prepareChannelUpdate(stored, fields, rules);
      await trx.updateTable('channels').set(values).where('id', '=', id).execute();
      await rewriteAbilities(trx, { id, ...values });
    }
    const after = await trx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await recordAudit(trx, audit, {
      action: updateAction(stored, after),
      target: auditTarget(after),
      changes: channelChanges(stored, after),
    });
    return after;
  });
  context.events.emit('channelsChanged');
  return updated;
}

export async function deleteChannel(context: AppContext, id: number, audit: AuditActor): Promise<void> {
  const deleted = await context.db.transaction().execute(async (trx) => {
    const stored = await trx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    await trx.deleteFrom('abilities').where('channel_id', '=', id).execute();
    const result = await trx.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
    if (stored && Number(result.numDeletedRows) > 0) {
      await recordAudit(trx, audit, {
        action: 'channel.delete',
        target: auditTarget(stored),
        changes: channelChanges(stored, null),
      });
    }
    return Number(result.numDeletedRows);
  });
  if (deleted === 0) fail(CHANNEL_NOT_FOUND);
  context.events.emit('channelsChanged');
}

/** DELETE /api/channel/disabled: manually and automatically disabled channels; answers how many went. */
export async function deleteDisabledChannels(context: AppContext, audit: AuditActor): Promise<number> {
  const disabled = [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled];
  const count = await context.db.transaction().execute(async (trx) => {
    const stored = await trx.selectFrom('channels').selectAll().where('status', 'in', disabled).execute();
    if (stored.length === 0) return 0;
    const ids = stored.map((row) => row.id);
    await trx.deleteFrom('abilities').where('channel_id', 'in', ids).execute();
    const result = await trx.deleteFrom('channels').where('id', 'in', ids).executeTakeFirst();
    await recordAudit(
      trx,
      audit,
      stored.map((row) => ({
        action: 'channel.delete',
        target: auditTarget(row),
        changes: channelChanges(row, null),
      })),
    );
    return Number(result.numDeletedRows);
  });
  if (count > 0) context.events.emit('channelsChanged');
  return count;
}

export async function getChannel(context: AppContext, id: number): Promise<ChannelRow> {
  return (await findChannelById(context.db, id)) ?? fail(CHANNEL_NOT_FOUND);
}
