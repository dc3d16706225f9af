import { channelFieldsSchema, ChannelStatus, type ChannelFields } from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { ChannelRow } from '../db/schema';
import { BusinessError } from '../http/envelope';
import { prepareChannelUpdate, prepareNewChannels, type ChannelValues } from '../channels/channel-input';
import { isOptionKey, type OptionKey } from '../options/option-defaults';
import { validateOption } from '../options/validate-option';
import { isRatioOptionKey } from '@gatehouse/shared';
import { priceOptionKeys, type FileChannel } from './config-file-schema';
import type { FilePath, ReadConfigFile } from './read-config-file';

const channelColumns = [
  'type',
  'name',
  'key',
  'base_url',
  'other',
  'model_mapping',
  'models',
  'group',
  'config',
  'priority',
  'weight',
  'status',
] as const satisfies ReadonlyArray<keyof ChannelValues>;

/** What applying the file would change; empty lists mean applying it changes nothing. */
export interface ConfigPlan {
  createChannels: ChannelValues[];
  updateChannels: Array<{ stored: ChannelRow; values: ChannelValues; fields: string[] }>;
  deleteChannels: ChannelRow[];
  /** channels of the database the file does not name, kept because `prune` is off */
  keptChannels: string[];
  options: Array<{ key: OptionKey; value: string; before: string }>;
}

/** The file's field name for a column, for messages. */
const fileFieldOf = (column: string) => (column === 'group' ? 'groups' : column);

/** The same JSON written differently (spacing, key order) is the same value. */
function sameJson(stored: string, planned: string): boolean {
  if (stored === planned) return true;
  try {
    const canonical = (text: string): string => {
      if (text.trim() === '') return '{}';
      const value = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))));
    };
    return canonical(stored) === canonical(planned);
  } catch {
    return false;
  }
}

function toChannelFields(entry: FileChannel, stored: ChannelRow | undefined): Record<string, unknown> {
  const hasMapping = Object.keys(entry.model_mapping).length > 0;
  const hasConfig = Object.keys(entry.config).length > 0;
  // An auto-disabled channel stays so while the file says enabled: channel health decides when it comes back.
  const keepAutoDisabled = entry.status === 'enabled' && stored?.status === ChannelStatus.autoDisabled;
  return {
    type: entry.type,
    name: entry.name,
    key: entry.key,
    base_url: entry.base_url,
    other: entry.other,
    model_mapping: hasMapping ? JSON.stringify(entry.model_mapping, null, 2) : '',
    models: entry.models,
    group: entry.groups,
    config: hasConfig ? JSON.stringify(entry.config) : '',
    priority: entry.priority,
    weight: entry.weight,
    status: keepAutoDisabled
      ? undefined
      : entry.status === 'enabled'
        ? ChannelStatus.enabled
        : ChannelStatus.manuallyDisabled,
  };
}

/** Runs a check of the management API; its refusal becomes a file error at `path`. */
function checked<T>(read: ReadConfigFile, path: FilePath, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof BusinessError) throw read.locate(path, error.message);
    throw error;
  }
}

function planChannels(read: ReadConfigFile, rows: ChannelRow[], plan: ConfigPlan): void {
  const { channels, prune } = read.file;
  const seen = new Set<string>();
  channels.forEach((entry, index) => {
    const path = ['channels', index];
    if (seen.has(entry.name)) throw read.locate([...path, 'name'], `a second channel named "${entry.name}"`);
    seen.add(entry.name);
    const named = rows.filter((row) => row.name === entry.name);
    if (named.length > 1) {
      throw read.locate(
        [...path, 'name'],
        `${named.length} channels of the database are named "${entry.name}"; rename all but one first`,
      );
    }
    const stored = named[0];
    const parsed = channelFieldsSchema.safeParse(toChannelFields(entry, stored));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw read.locate([...path, fileFieldOf(String(issue.path[0] ?? ''))], issue.message);
    }
    const fields: ChannelFields = parsed.data;
    if (!stored) {
      const created = checked(read, path, () => prepareNewChannels(fields));
      if (created.length !== 1) throw read.locate([...path, 'key'], 'a channel has one key (no line breaks)');
      plan.createChannels.push(created[0]!);
      return;
    }
    const values = checked(read, path, () => prepareChannelUpdate(stored, fields));
    const changed = channelColumns.filter((column) => {
      const before = column === 'priority' ? Number(stored.priority) : stored[column];
      if (column === 'model_mapping' || column === 'config') return !sameJson(String(before), values[column]);
      return before !== values[column];
    });
    if (changed.length > 0) plan.updateChannels.push({ stored, values, fields: changed.map(fileFieldOf) });
  });
  for (const row of rows) {
    if (seen.has(row.name)) continue;
    if (prune) plan.deleteChannels.push(row);
    else plan.keptChannels.push(row.name);
  }
}

function planOptions(read: ReadConfigFile, context: AppContext, plan: ConfigPlan): void {
  const { prices, groups, options } = read.file;
  const wanted: Array<{ path: FilePath; key: string; value: string }> = [];
  for (const key of priceOptionKeys) {
    const map = prices[key];
    if (map) wanted.push({ path: ['prices', key], key, value: JSON.stringify(map) });
  }
  if (groups) wanted.push({ path: ['groups'], key: 'GroupRatio', value: JSON.stringify(groups) });
  for (const [key, value] of Object.entries(options)) {
    const path = ['options', key];
    if (!isOptionKey(key)) throw read.locate(path, `unknown option ${key}`);
    if (isRatioOptionKey(key)) {
      throw read.locate(
        path,
        key === 'GroupRatio' ? 'GroupRatio is written as groups:' : `${key} belongs under prices:`,
      );
    }
    wanted.push({ path, key, value: String(value) });
  }
  // A switch may rely on options the same file fills in (OIDC on, with its client id beside it).
  const planned = new Map<string, string>(wanted.map(({ key, value }) => [key, value]));
  const view = { get: (key: OptionKey) => planned.get(key) ?? context.options.get(key) };
  for (const { path, key, value } of wanted) {
    const [optionKey, normalized] = checked(read, path, () => validateOption(key, value, view));
    const before = context.options.get(optionKey);
    const same = isRatioOptionKey(optionKey) ? sameJson(before, normalized) : before === normalized;
    if (!same) plan.options.push({ key: optionKey, value: normalized, before });
  }
}

/** Checks the whole file against the database as it is and answers what would change; writes nothing. */
export async function planConfigFile(context: AppContext, read: ReadConfigFile): Promise<ConfigPlan> {
  const rows = await context.db.selectFrom('channels').selectAll().orderBy('id').execute();
  const plan: ConfigPlan = {
    createChannels: [],
    updateChannels: [],
    deleteChannels: [],
    keptChannels: [],
    options: [],
  };
  planChannels(read, rows, plan);
  planOptions(read, context, plan);
  return plan;
}
