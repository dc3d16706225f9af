import { readFile } from 'node:fs/promises';
import type { AppContext } from '../context';
import { recordAudit, SYSTEM_AUDIT_ACTOR, type AuditRecord } from '../audit/audit-log';
import { channelChanges, optionChanges } from '../audit/audit-subjects';
import { rewriteAbilities } from '../channels/abilities';
import { auditTarget, insertChannelRow, updateAction } from '../channels/channel-service';
import { writeOptionRow } from '../options/option-store';
import { planConfigFile, type ConfigPlan } from './plan-config-file';
import { readConfigFile } from './read-config-file';

/** What an application changed, for the log: names only, never a key or a secret option's value. */
export interface ConfigDiff {
  created: string[];
  changed: string[];
  deleted: string[];
  leftAlone: string[];
}

export function isEmptyDiff(diff: ConfigDiff): boolean {
  return diff.created.length === 0 && diff.changed.length === 0 && diff.deleted.length === 0;
}

export function formatDiff(diff: ConfigDiff): string {
  if (isEmptyDiff(diff)) return 'configuration file applied: nothing to change';
  const lines = [
    ...diff.created.map((line) => `  + ${line}`),
    ...diff.changed.map((line) => `  ~ ${line}`),
    ...diff.deleted.map((line) => `  - ${line}`),
  ];
  return `configuration file applied:\n${lines.join('\n')}`;
}

function diffOf(plan: ConfigPlan): ConfigDiff {
  return {
    created: plan.createChannels.map((channel) => `channel ${channel.name}`),
    changed: [
      ...plan.updateChannels.map(({ stored, fields }) => `channel ${stored.name}: ${fields.join(', ')}`),
      ...plan.options.map(({ key }) => `option ${key}`),
    ],
    deleted: plan.deleteChannels.map((row) => `channel ${row.name}`),
    leftAlone: plan.keptChannels.map((name) => `channel ${name} (not in the file; prune is off)`),
  };
}

/** Writes a plan in one transaction, with its audit entries; then tells this and the other instances. */
async function writePlan(context: AppContext, plan: ConfigPlan): Promise<void> {
  await context.db.transaction().execute(async (trx) => {
    const audit: AuditRecord[] = [];
    for (const values of plan.createChannels) {
      const id = await insertChannelRow(trx, values);
      await rewriteAbilities(trx, { id, ...values });
      const row = await trx.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      audit.push({ action: 'channel.create', target: auditTarget(row), changes: channelChanges(null, row) });
    }
    for (const { stored, values } of plan.updateChannels) {
      await trx.updateTable('channels').set(values).where('id', '=', stored.id).execute();
      await rewriteAbilities(trx, { id: stored.id, ...values });
      const after = await trx
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', stored.id)
        .executeTakeFirstOrThrow();
      audit.push({
        action: updateAction(stored, after),
        target: auditTarget(after),
        changes: channelChanges(stored, after),
      });
    }
    const deletedIds = plan.deleteChannels.map((row) => row.id);
    if (deletedIds.length > 0) {
      await trx.deleteFrom('abilities').where('channel_id', 'in', deletedIds).execute();
      await trx.deleteFrom('channels').where('id', 'in', deletedIds).execute();
      for (const row of plan.deleteChannels) {
        audit.push({
          action: 'channel.delete',
          target: auditTarget(row),
          changes: channelChanges(row, null),
        });
      }
    }
    for (const { key, value, before } of plan.options) {
      await writeOptionRow(trx, key, value);
      audit.push({
        action: 'option.update',
        target: { type: 'option', id: key, name: key },
        changes: optionChanges(key, before, value),
      });
    }
    await recordAudit(trx, SYSTEM_AUDIT_ACTOR, audit);
  });
  for (const { key, value } of plan.options) context.options.noteWritten(key, value);
  const channelsMoved = plan.createChannels.length + plan.updateChannels.length + plan.deleteChannels.length;
  if (channelsMoved > 0) context.events.emit('channelsChanged');
}

/**
 * Applies the text of a configuration file: read and checked whole against the database first (a
 * ConfigFileError with line and column, nothing written), then written in one transaction. Applying the same
 * file again changes nothing.
 */
export async function applyConfigText(
  context: AppContext,
  text: string,
  options: { env?: NodeJS.ProcessEnv; fileName?: string } = {},
): Promise<ConfigDiff> {
  const read = readConfigFile(text, options.env ?? process.env, options.fileName);
  const plan = await planConfigFile(context, read);
  const diff = diffOf(plan);
  if (!isEmptyDiff(diff)) await writePlan(context, plan);
  return diff;
}

export async function applyConfigFile(context: AppContext, filePath: string): Promise<ConfigDiff> {
  return applyConfigText(context, await readFile(filePath, 'utf8'), { fileName: filePath });
}
