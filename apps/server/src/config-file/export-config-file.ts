import {
  ChannelStatus,
  parseChannelConfig,
  ratioOptionNames,
  secretChannelConfigFields,
  splitList,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import type { ChannelRow } from '../db/schema';
import { isSecretOption, optionDefinitions, type OptionKey } from '../options/option-defaults';
import { channelTypeName, priceOptionKeys } from './config-file-schema';
import { yaml } from './yaml-package';

/**
 * `placeholders`: every secret (channel keys, credentials in a channel's config, secret options) is written as
 * a `${VARIABLE}` reference to set where the file is applied — the only form the console ever gets.
 * `include`: the secrets themselves, for the command line on the server.
 */
export type SecretMode = 'placeholders' | 'include';

/** CHANNEL_OPENAI_MAIN_KEY for the key of the channel "openai main". */
export function variableName(...parts: string[]): string {
  return parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function exportChannel(row: ChannelRow, secrets: SecretMode, variables: string[]): Record<string, unknown> {
  const secret = (value: string, ...name: string[]) => {
    if (secrets === 'include' || value === '') return value;
    const variable = variableName('CHANNEL', row.name, ...name);
    variables.push(variable);
    return `\${${variable}}`;
  };
  const config: Record<string, string> = { ...(parseChannelConfig(row.config) ?? {}) };
  for (const field of secretChannelConfigFields) {
    if (config[field]) config[field] = secret(config[field], field);
  }
  const entry: Record<string, unknown> = {
    name: row.name,
    type: channelTypeName(row.type),
    key: secret(row.key, 'KEY'),
    base_url: row.base_url || undefined,
    models: splitList(row.models),
    groups: splitList(row.group),
    model_mapping: row.model_mapping.trim() ? parseObject(row.model_mapping) : undefined,
    priority: Number(row.priority) || undefined,
    weight: row.weight || undefined,
    // an auto-disabled channel was meant to serve: channel health, not the file, holds it back
    status: row.status === ChannelStatus.manuallyDisabled ? 'disabled' : undefined,
    other: row.other || undefined,
    config: Object.keys(config).length > 0 ? config : undefined,
  };
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
}

function exportOptions(
  context: Pick<AppContext, 'options'>,
  secrets: SecretMode,
  variables: string[],
): Record<string, string | number | boolean> {
  const options: Record<string, string | number | boolean> = {};
  for (const [key, value] of context.options.entries()) {
    const definition = optionDefinitions[key];
    if (key in ratioOptionNames || value === definition.defaultValue) continue;
    if (isSecretOption(key) && secrets === 'placeholders') {
      const variable = variableName('OPTION', key);
      variables.push(variable);
      options[key] = `\${${variable}}`;
    } else if (definition.kind === 'boolean') options[key] = value === 'true';
    else if (definition.kind === 'number') options[key] = Number(value);
    else options[key] = value;
  }
  return options;
}

/** The current channels, prices, groups and changed options as a configuration file that applies back to them. */
export async function exportConfigFile(
  context: Pick<AppContext, 'db' | 'options'>,
  secrets: SecretMode,
): Promise<string> {
  const rows = await context.db.selectFrom('channels').selectAll().orderBy('id').execute();
  const variables: string[] = [];
  const prices: Record<string, unknown> = {};
  for (const key of priceOptionKeys) {
    const map = parseObject(context.options.get(key as OptionKey));
    if (Object.keys(map).length > 0) prices[key] = map;
  }
  const content = {
    prune: false,
    channels: rows.map((row) => exportChannel(row, secrets, variables)),
    prices,
    groups: parseObject(context.options.get('GroupRatio')),
    options: exportOptions(context, secrets, variables),
  };
  const document = new (yaml().Document)(content);
  const header = [`Gatehouse configuration, exported ${new Date().toISOString()}`];
  if (variables.length > 0)
    header.push(
      'Set these environment variables where it is applied:',
      ...variables.map((name) => `  ${name}`),
    );
  document.commentBefore = header.map((line) => ` ${line}`).join('\n');
  return document.toString({ lineWidth: 0 });
}
