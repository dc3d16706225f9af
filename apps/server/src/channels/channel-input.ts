import {
  ChannelStatus,
  ChannelType,
  channelMessages,
  channelTypesRequiringBaseUrl,
  parseChannelConfig,
  type ChannelFields,
  MAX_KEYS_PER_BATCH,
} from '@gatehouse/shared';
import type { ChannelRow } from '../db/schema';
import { fail } from '../http/envelope';
import { validateAiProxyLibraryChannel } from '../providers/ai-proxy-library/validate-ai-proxy-library-channel';
import { validateBaiduKey } from '../providers/baidu/baidu-adapter';
import { validateBedrockKey } from '../providers/bedrock/bedrock-adapter';
import { validatePalmChannel } from '../providers/palm/validate-palm-channel';
import { validateTencentKey } from '../providers/tencent/tencent-adapter';
import { validateVertexConfig, validateVertexKey } from '../providers/vertex-ai/vertex-adapter';
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

/** Types whose key has a format of its own, checked line by line: the message names the format, never the key. */
const keyValidators: Readonly<Record<number, (key: string) => string | null>> = {
  [ChannelType.awsClaude]: validateBedrockKey,
  [ChannelType.baidu]: validateBaiduKey,
  [ChannelType.tencent]: validateTencentKey,
};

/** The rules a saved channel must satisfy whichever way it was built, checked in the
 * order the console's form checks them, so both show the same first message. */
function checkChannel(values: ChannelValues, keys: string[]): void {
  // A Vertex key is composed from the channel's Vertex fields: when none came out, say which field is wrong.
  if (values.type === ChannelType.vertexAi && values.name !== '' && keys.length === 0) {
    fail(validateVertexConfig(parseChannelConfig(values.config) ?? {}) ?? channelMessages.nameAndKeyRequired);
  }
  if (values.name === '' || keys.length === 0) fail(channelMessages.nameAndKeyRequired);
  if (values.type !== ChannelType.proxy && values.models === '') fail(channelMessages.modelsRequired);
  if (values.group === '') fail(channelMessages.groupRequired);
  if (channelTypesRequiringBaseUrl.includes(values.type) && values.base_url === '') {
    fail(channelMessages.baseUrlRequired);
  }
  const validateKey = keyValidators[values.type];
  if (validateKey) {
    const problem = keys.map(validateKey).find((message) => message !== null);
    if (problem) fail(problem);
  }
  const credentials = parseChannelConfig(values.config)?.vertex_ai_adc;
  if (values.type === ChannelType.vertexAi && credentials && parseChannelConfig(credentials) === null) {
    fail(channelMessages.vertexCredentialsInvalid);
  }
  if (values.type === ChannelType.vertexAi) {
    const problem = keys.map(validateVertexKey).find((message) => message !== null);
    if (problem) fail(problem);
  }
}

/**
 * A type whose vendor API is gone (PaLM) or has no reference to follow (AI Proxy's knowledge base) is refused
 * when a channel would newly take it; a channel stored with it stays editable.
 */
function checkTypeStillServed(type: number, storedType: number | null): void {
  const problem = validatePalmChannel(type, storedType) ?? validateAiProxyLibraryChannel(type, storedType);
  if (problem) fail(problem);
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
  if (keys.length > MAX_KEYS_PER_BATCH) fail(channelMessages.tooManyKeys);
  checkChannel(values, keys);
  checkTypeStillServed(type, null);
  return keys.map((key) => ({ ...values, key }));
}

export interface ChannelUpdateRules {
  /**
   * Whether a new base URL may keep the stored key (or stored credentials). Only root reads keys: an admin who
   * could move a channel to an address of its own would receive the key with the next test or relayed call.
   */
  mayMoveStoredKey: boolean;
}

/**
 * PUT with the form: given fields replace stored ones. A blank key keeps the stored key, unless AWS / Vertex
 * special fields compose a new one; blank credentials inside config keep the stored credentials.
 */
export function prepareChannelUpdate(
  stored: ChannelRow,
  fields: ChannelFields,
  rules: ChannelUpdateRules = { mayMoveStoredKey: true },
): ChannelValues {
  const type = fields.type ?? stored.type;
  const config = fields.config === undefined ? stored.config : mergeConfig(stored.config, fields.config);
  const typedKeys = splitKeys(fields.key ?? '');
  if (typedKeys.length > 1) fail('a channel has one key; one key per line is only for creating channels');
  const isNewBaseUrl = fields.base_url !== undefined && fields.base_url !== stored.base_url;
  const isKeyGiven = typedKeys.length > 0 || defaultKey(type, fields.config ?? '') !== '';
  if (isNewBaseUrl && !isKeyGiven && !rules.mayMoveStoredKey) {
    fail('Enter the channel key again to change its base URL');
  }
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
  checkTypeStillServed(type, stored.type);
  return values;
}
