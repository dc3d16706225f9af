import {
  ChannelStatus,
  ChannelType,
  channelMessages,
  channelTypesRequiringBaseUrl,
  parseChannelConfig,
  type ChannelFields,
} from '@gatehouse/shared';
import type { ChannelRow } from '../db/schema';
import { fail } from '../http/envelope';
import { defaultKey, defaultOther, mergeConfig } from './channel-type-defaults';

/** What the form decides about a channel; counters, test results and balance belong to the relay. */
export interface ChannelValues {
  type: number;
  name: string;
  key: string;
  base_url: string;
  other: string;
  model_mapping: string;
  models: string;
  group: string;
  config: string;
  priority: number;
  weight: number;
  status: number;
}

const pickFields = ['status', 'priority', 'weight'] as const;

/** PUT with only status, priority and/or weight: the list's in-place edits and the enable/disable button. */
export function isPickFieldsUpdate(fields: ChannelFields): boolean {
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  return given.length > 0 && given.every(([field]) => (pickFields as readonly string[]).includes(field));
}

function splitKeys(key: string): string[] {
  return key
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The rules a saved channel must satisfy whichever way it was built (SPEC §5 order of messages). */
function checkChannel(values: ChannelValues, keys: string[]): void {
  if (values.name === '' || keys.length === 0) fail(channelMessages.nameAndKeyRequired);
  if (values.type !== ChannelType.proxy && values.models === '') fail(channelMessages.modelsRequired);
  if (values.group === '') fail(channelMessages.groupRequired);
  if (channelTypesRequiringBaseUrl.includes(values.type) && values.base_url === '') {
    fail(channelMessages.baseUrlRequired);
  }
  const credentials = parseChannelConfig(values.config)?.vertex_ai_adc;
  if (values.type === ChannelType.vertexAi && credentials && parseChannelConfig(credentials) === null) {
    fail(channelMessages.vertexCredentialsInvalid);
  }
}

/** POST: one channel per non-empty line of the key (batch create), all with the same fields. */
export function prepareNewChannels(fields: ChannelFields): ChannelValues[] {
  const type = fields.type ?? ChannelType.openai;
  const config = fields.config ?? '';
  const values: ChannelValues = {
    type,
    name: fields.name ?? '',
    key: '',
    base_url: fields.base_url ?? '',
    other: defaultOther(type, fields.other ?? ''),
    model_mapping: fields.model_mapping ?? '',
    models: fields.models ?? '',
    group: fields.group ?? 'default',
    config,
    priority: fields.priority ?? 0,
    weight: fields.weight ?? 0,
    status: fields.status ?? ChannelStatus.enabled,
  };
  const typedKeys = splitKeys(fields.key ?? '');
  const keys = typedKeys.length > 0 ? typedKeys : [defaultKey(type, config)].filter(Boolean);
  checkChannel(values, keys);
  return keys.map((key) => ({ ...values, key }));
}

/**
 * PUT with the form: given fields replace stored ones. A blank key keeps the stored key, unless AWS / Vertex
 * special fields compose a new one; blank credentials inside config keep the stored credentials.
 */
export function prepareChannelUpdate(stored: ChannelRow, fields: ChannelFields): ChannelValues {
  const type = fields.type ?? stored.type;
  const config = fields.config === undefined ? stored.config : mergeConfig(stored.config, fields.config);
  const typedKeys = splitKeys(fields.key ?? '');
  if (typedKeys.length > 1) fail('a channel has one key; one key per line is only for creating channels');
  const key = typedKeys[0] ?? (defaultKey(type, config) || stored.key);
  const values: ChannelValues = {
    type,
    name: fields.name ?? stored.name,
    key,
    base_url: fields.base_url ?? stored.base_url,
    other: defaultOther(type, fields.other ?? stored.other),
    model_mapping: fields.model_mapping ?? stored.model_mapping,
    models: fields.models ?? stored.models,
    group: fields.group ?? stored.group,
    config,
    priority: fields.priority ?? Number(stored.priority),
    weight: fields.weight ?? stored.weight,
    status: fields.status ?? stored.status,
  };
  checkChannel(values, [key]);
  return values;
}
