import { MysqlAdapter, type Kysely } from 'kysely';
import { ChannelStatus, type ChannelFields } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { ChannelRow, Database } from '../db/schema';
import { fail } from '../http/envelope';
import { rewriteAbilities, updateAbilityFields } from './abilities';
import {
  isPickFieldsUpdate,
  prepareChannelUpdate,
  prepareNewChannels,
  type ChannelValues,
} from './channel-input';
import { findChannelById } from './channel-repository';

export const CHANNEL_NOT_FOUND = 'Channel not found';

/** MySQL has no INSERT … RETURNING; the others do, and PostgreSQL reports no insert id without it. */
async function insertChannelRow(db: Kysely<Database>, values: ChannelValues): Promise<number> {
  const row = { ...values, created_time: Math.floor(Date.now() / 1000) };
  if (db.getExecutor().adapter instanceof MysqlAdapter) {
    const result = await db.insertInto('channels').values(row).executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const inserted = await db.insertInto('channels').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** POST /api/channel/: every channel of a batch and all their abilities commit together, or none does. */
export async function createChannels(context: AppContext, fields: ChannelFields): Promise<number[]> {
  const channels = prepareNewChannels(fields);
  const ids = await context.db.transaction().execute(async (trx) => {
    const created: number[] = [];
    for (const values of channels) {
      const id = await insertChannelRow(trx, values);
      await rewriteAbilities(trx, { id, ...values });
      created.push(id);
    }
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
      const values = prepareChannelUpdate(stored, fields);
      await trx.updateTable('channels').set(values).where('id', '=', id).execute();
      await rewriteAbilities(trx, { id, ...values });
    }
    return trx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
  context.events.emit('channelsChanged');
  return updated;
}

export async function deleteChannel(context: AppContext, id: number): Promise<void> {
  const deleted = await context.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('abilities').where('channel_id', '=', id).execute();
    const result = await trx.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  if (deleted === 0) fail(CHANNEL_NOT_FOUND);
  context.events.emit('channelsChanged');
}

/** DELETE /api/channel/disabled: manually and automatically disabled channels; answers how many went. */
export async function deleteDisabledChannels(context: AppContext): Promise<number> {
  const disabled = [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled];
  const count = await context.db.transaction().execute(async (trx) => {
    const ids = trx.selectFrom('channels').select('id').where('status', 'in', disabled);
    await trx.deleteFrom('abilities').where('channel_id', 'in', ids).execute();
    const result = await trx.deleteFrom('channels').where('status', 'in', disabled).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  if (count > 0) context.events.emit('channelsChanged');
  return count;
}

export async function getChannel(context: AppContext, id: number): Promise<ChannelRow> {
  return (await findChannelById(context.db, id)) ?? fail(CHANNEL_NOT_FOUND);
}
