import { ChannelStatus } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { recordAudit, SYSTEM_AUDIT_ACTOR } from '../audit/audit-log';
import { channelChanges } from '../audit/audit-subjects';
import { updateAbilityFields } from './abilities';

/**
 * Sets a channel's status with its abilities in one transaction and tells the relay's cache. For the relay's
 * channel health: auto-disable (3) on a dead key, re-enable (1) after a passing test. The audit entry names the
 * system as the actor and commits with the change, with the reason when one is given.
 * Answers false when no channel has that id.
 */
export async function setChannelStatus(
  context: AppContext,
  id: number,
  status: number,
  reason = '',
): Promise<boolean> {
  const found = await context.db.transaction().execute(async (trx) => {
    const channel = await trx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    if (!channel) return false;
    await trx.updateTable('channels').set({ status }).where('id', '=', id).execute();
    await updateAbilityFields(trx, { id, priority: channel.priority, weight: channel.weight, status });
    await recordAudit(trx, SYSTEM_AUDIT_ACTOR, {
      action: status === ChannelStatus.enabled ? 'channel.enable' : 'channel.disable',
      target: { type: 'channel', id, name: channel.name },
      changes: [
        ...channelChanges(channel, { ...channel, status }),
        ...(reason ? [{ field: 'reason', before: null, after: reason }] : []),
      ],
    });
    return true;
  });
  if (found) context.events.emit('channelsChanged');
  return found;
}
