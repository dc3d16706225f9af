import type { Insertable, Kysely } from 'kysely';
import { ChannelStatus, splitList } from '@gatehouse/shared';
import type { AbilitiesTable, ChannelRow, Database } from '../db/schema';

type Executor = Kysely<Database>;
type NewAbilityRow = Insertable<AbilitiesTable>;

/** Rows per INSERT: keeps every statement under SQLite's bound-parameter limit whatever the model list. */
const INSERT_CHUNK = 500;

type AbilitySource = Pick<ChannelRow, 'id' | 'group' | 'models' | 'status' | 'priority' | 'weight'>;

/** The abilities a channel should have: one row per group × model, carrying its pick fields. */
export function abilitiesOf(channel: AbilitySource): NewAbilityRow[] {
  const rows: NewAbilityRow[] = [];
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === ChannelStatus.enabled ? 1 : 0,
        priority: Number(channel.priority),
        weight: channel.weight,
      });
    }
  }
  return rows;
}

/** Replaces a channel's abilities; call inside the transaction that saved the channel. */
export async function rewriteAbilities(db: Executor, channel: AbilitySource): Promise<void> {
  await db.deleteFrom('abilities').where('channel_id', '=', channel.id).execute();
  const rows = abilitiesOf(channel);
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('abilities')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

/** Status, priority or weight changed: the rows stay, their pick fields follow. */
export async function updateAbilityFields(
  db: Executor,
  channel: Pick<ChannelRow, 'id' | 'status' | 'priority' | 'weight'>,
): Promise<void> {
  await db
    .updateTable('abilities')
    .set({
      enabled: channel.status === ChannelStatus.enabled ? 1 : 0,
      priority: Number(channel.priority),
      weight: channel.weight,
    })
    .where('channel_id', '=', channel.id)
    .execute();
}
