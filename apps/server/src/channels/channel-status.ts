import type { AppContext } from '../context';
import { updateAbilityFields } from './abilities';

/**
 * Sets a channel's status with its abilities in one transaction and tells the relay's cache. For the relay's
 * channel health: auto-disable (3) on a dead key, re-enable (1) after a passing test.
 * Answers false when no channel has that id.
 */
export async function setChannelStatus(context: AppContext, id: number, status: number): Promise<boolean> {
  const found = await context.db.transaction().execute(async (trx) => {
    const channel = await trx
      .selectFrom('channels')
      .select(['id', 'priority', 'weight'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!channel) return false;
    await trx.updateTable('channels').set({ status }).where('id', '=', id).execute();
    await updateAbilityFields(trx, { ...channel, status });
    return true;
  });
  if (found) context.events.emit('channelsChanged');
  return found;
}
