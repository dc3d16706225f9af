import {
  ChannelType,
  channelTypesRequiringBaseUrl,
  composeChannelKey,
  findModelMappingProblem,
  isHttpUrl,
  parseChannelConfig,
  removeTrailingSlashes,
  type Channel,
  type ChannelConfig,
} from '@gatehouse/shared';
import type { ChannelPayload } from './channels-queries';

/** Types whose key is built from the special fields rather than typed. */
export const typesWithComposedKey: readonly number[] = [ChannelType.awsClaude, ChannelType.vertexAi];

/** Which special config fields each type uses; the others are not sent. */
const configFieldsByType: Readonly<Record<number, ReadonlyArray<keyof ChannelConfig>>> = {
  [ChannelType.awsClaude]: ['region', 'ak', 'sk'],
  [ChannelType.coze]: ['user_id'],
  [ChannelType.cloudflare]: ['user_id'],
  [ChannelType.vertexAi]: ['region', 'vertex_ai_project_id', 'vertex_ai_adc'],
};

export interface ChannelFormValues {
  type: number;
  name: string;
  key: string;
  batch: boolean;
  base_url: string;
  other: string;
  model_mapping: string;
  models: string[];
  groups: string[];
  config: Required<ChannelConfig>;
  /** number inputs give '' when emptied */
  priority: number | string;
  weight: number | string;
}

/** A problem of the form: the field path and the i18n key of its message. */
export interface ChannelFormIssue {
  path: 'name' | 'key' | 'models' | 'model_mapping' | 'base_url' | 'groups' | 'config.vertex_ai_adc';
  message: string;
}

export interface ChannelFormContext {
  isCreate: boolean;
  /** the stored key is kept when the key is blank on edit */
  hasStoredKey: boolean;
}

function relevantConfig(values: ChannelFormValues): ChannelConfig {
  const config: ChannelConfig = {};
  for (const field of configFieldsByType[values.type] ?? []) {
    const value = values.config[field].trim();
    if (value) config[field] = value;
  }
  return config;
}

/** The channel form's checks, in the order the server makes them (packages/shared channel-schemas); messages are i18n keys. */
export function validateChannelForm(
  values: ChannelFormValues,
  context: ChannelFormContext,
): ChannelFormIssue[] {
  const issues: ChannelFormIssue[] = [];
  const add = (path: ChannelFormIssue['path'], message: string) => issues.push({ path, message });
  const composedKey = composeChannelKey(values.type, relevantConfig(values));
  const hasKey =
    values.key.trim() !== '' || composedKey !== '' || (!context.isCreate && context.hasStoredKey);
  if (values.name.trim() === '') add('name', 'channels.validation.nameAndKeyRequired');
  else if (!hasKey) add('key', 'channels.validation.nameAndKeyRequired');
  if (values.type !== ChannelType.proxy && values.models.length === 0)
    add('models', 'channels.validation.modelsRequired');
  const mappingProblem = findModelMappingProblem(values.model_mapping);
  if (mappingProblem) {
    const isSyntax = mappingProblem === 'model mapping must be valid JSON';
    add(
      'model_mapping',
      isSyntax ? 'channels.validation.modelMappingInvalid' : 'channels.validation.modelMappingNotObject',
    );
  }
  const baseUrl = removeTrailingSlashes(values.base_url);
  if (baseUrl !== '' && !isHttpUrl(baseUrl)) add('base_url', 'channels.validation.baseUrlInvalid');
  if (baseUrl === '' && channelTypesRequiringBaseUrl.includes(values.type)) {
    add('base_url', 'channels.validation.baseUrlRequired');
  }
  if (values.groups.length === 0) add('groups', 'channels.validation.groupRequired');
  const credentials = values.config.vertex_ai_adc.trim();
  if (values.type === ChannelType.vertexAi && credentials && parseChannelConfig(credentials) === null) {
    add('config.vertex_ai_adc', 'channels.validation.vertexCredentialsInvalid');
  }
  return issues;
}

const emptyConfig = (): ChannelFormValues['config'] => ({
  region: '',
  ak: '',
  sk: '',
  user_id: '',
  vertex_ai_project_id: '',
  vertex_ai_adc: '',
});

/** A new channel is OpenAI in group 'default'. */
export function newChannelFormValues(): ChannelFormValues {
  return {
    type: ChannelType.openai,
    name: '',
    key: '',
    batch: false,
    base_url: '',
    other: '',
    model_mapping: '',
    models: [],
    groups: ['default'],
    config: emptyConfig(),
    priority: 0,
    weight: 0,
  };
}

const splitNames = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

export function channelToFormValues(channel: Channel, name = channel.name): ChannelFormValues {
  const config = { ...emptyConfig(), ...parseChannelConfig(channel.config) };
  let mapping = channel.model_mapping;
  try {
    if (mapping) mapping = JSON.stringify(JSON.parse(mapping), null, 2);
  } catch {
    // shown as stored; validation points at it
  }
  return {
    type: channel.type,
    name,
    key: channel.key,
    batch: false,
    base_url: channel.base_url,
    other: channel.other,
    model_mapping: mapping,
    models: splitNames(channel.models),
    groups: splitNames(channel.group),
    config,
    priority: channel.priority,
    weight: channel.weight,
  };
}

/** A number field: empty text is ignored, weight is clamped to at least 0. */
function readInteger(value: number | string, minimum?: number): number | undefined {
  if (value === '') return undefined;
  const number = Math.trunc(Number(value));
  if (!Number.isFinite(number)) return undefined;
  return minimum === undefined ? number : Math.max(minimum, number);
}

export function toChannelPayload(values: ChannelFormValues): ChannelPayload {
  const config = relevantConfig(values);
  const payload: ChannelPayload = {
    type: values.type,
    name: values.name.trim(),
    key: typesWithComposedKey.includes(values.type) ? '' : values.batch ? values.key : values.key.trim(),
    base_url: typesWithComposedKey.includes(values.type) ? '' : removeTrailingSlashes(values.base_url),
    other: values.other.trim(),
    model_mapping: values.model_mapping.trim(),
    models: values.models.join(','),
    group: values.groups.join(','),
    config: Object.keys(config).length > 0 ? JSON.stringify(config) : '',
  };
  const priority = readInteger(values.priority);
  const weight = readInteger(values.weight, 0);
  if (priority !== undefined) payload.priority = priority;
  if (weight !== undefined) payload.weight = weight;
  return payload;
}
