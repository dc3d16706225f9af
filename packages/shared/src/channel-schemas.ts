import { z } from 'zod';
import { ChannelStatus } from './enums';
import { rowIdSchema } from './row-id';
import { ChannelType, isKnownChannelType } from './channel-types';

/** Channel form messages; the server answers the same words the console shows. */
/**
 * Keys one request may create channels for (one per line). Each is a channel with its abilities, written in
 * one transaction; larger lists go in several requests.
 */
export const MAX_KEYS_PER_BATCH = 10_000;

export const channelMessages = {
  nameAndKeyRequired: 'please fill in channel name and channel key',
  tooManyKeys: `at most ${MAX_KEYS_PER_BATCH} keys (one channel each) in one request; send the rest in another`,
  modelsRequired: 'please select at least one model',
  modelMappingInvalid: 'model mapping must be valid JSON',
  modelMappingNotObject: 'model mapping must be a JSON object mapping model names to model names',
  configInvalid: 'config must be valid JSON',
  vertexCredentialsInvalid: 'Vertex AI credentials must be valid JSON',
  groupRequired: 'please select at least one group',
  groupInvalid: 'group names must not contain spaces and must be at most 64 characters',
  groupTooLong: 'the group list must be at most 255 characters',
  modelNameTooLong: 'model names must be at most 255 characters',
  baseUrlInvalid: 'base URL must be a valid http(s) URL',
  baseUrlRequired: 'please fill in the base URL for this channel type',
  nameTooLong: 'channel name must be at most 128 characters',
  priorityInvalid: 'priority must be an integer',
  weightInvalid: 'weight must be an integer of at least 0',
  typeInvalid: 'unknown channel type',
  statusInvalid: 'status must be 1 (enabled) or 2 (disabled)',
} as const;

/** Azure's API version when the form leaves it blank. */
export const DEFAULT_AZURE_API_VERSION = '2024-03-01-preview';

/** The sample model mapping maps old dated model names to base names. */
export const MODEL_MAPPING_SAMPLE = JSON.stringify(
  { 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4', 'gpt-4-32k-0314': 'gpt-4-32k' },
  null,
  2,
);

/** Key format hints by channel type. */
export const channelKeyFormats: Readonly<Record<number, string>> = {
  [ChannelType.baidu]: 'APIKey|SecretKey',
  [ChannelType.xunfei]: 'APPID|APISecret|APIKey',
  [ChannelType.fastGpt]: 'APIKey-AppId',
  [ChannelType.tencent]: 'AppId|SecretId|SecretKey',
};

/** Types whose upstream address has no default: the channel must name it. */
export const channelTypesRequiringBaseUrl: readonly number[] = [
  ChannelType.azure,
  ChannelType.custom,
  ChannelType.proxy,
];

/** The special fields of the config JSON. */
export interface ChannelConfig {
  region?: string;
  ak?: string;
  sk?: string;
  user_id?: string;
  vertex_ai_project_id?: string;
  vertex_ai_adc?: string;
}

/** Config fields that are credentials: never listed, and a blank one on edit keeps the stored value. */
export const secretChannelConfigFields = ['ak', 'sk', 'vertex_ai_adc'] as const;

/** Comma list → trimmed, de-duplicated, non-empty names joined by commas. */
export function normalizeList(text: string): string {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return [...new Set(names)].join(',');
}

export function splitList(text: string): string[] {
  return text === '' ? [] : normalizeList(text).split(',').filter(Boolean);
}

export function removeTrailingSlashes(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

// This package compiles without DOM or Node types; browsers and Node both have the WHATWG URL class.
declare const URL: new (input: string) => { protocol: string; hostname: string };

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first problem of a model mapping text, or null when it is empty or a JSON object of strings. */
export function findModelMappingProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const parsed = parseJson(text);
  if (!parsed.ok) return channelMessages.modelMappingInvalid;
  if (!isPlainObject(parsed.value)) return channelMessages.modelMappingNotObject;
  const isStringMap = Object.values(parsed.value).every((value) => typeof value === 'string');
  return isStringMap ? null : channelMessages.modelMappingNotObject;
}

/** The config JSON as an object of strings (unknown or non-string fields are dropped); empty text is {}. */
export function parseChannelConfig(text: string): ChannelConfig | null {
  if (text.trim() === '') return {};
  const parsed = parseJson(text);
  if (!parsed.ok || !isPlainObject(parsed.value)) return null;
  const config: Record<string, string> = {};
  for (const [field, value] of Object.entries(parsed.value)) {
    if (typeof value === 'string') config[field] = value;
  }
  return config;
}

/**
 * With an empty key, AWS (33) and Vertex AI (42) build it from the special fields. The Vertex
 * credentials JSON is minified so the key stays one line (a multi-line key would mean a batch).
 */
export function composeChannelKey(type: number, config: ChannelConfig): string {
  if (type === ChannelType.awsClaude) {
    const parts = [config.ak, config.sk, config.region].map((part) => part?.trim() ?? '');
    return parts.every(Boolean) ? parts.join('|') : '';
  }
  if (type === ChannelType.vertexAi) {
    const region = config.region?.trim() ?? '';
    const project = config.vertex_ai_project_id?.trim() ?? '';
    const credentials = parseJson(config.vertex_ai_adc ?? '');
    if (!region || !project || !credentials.ok || !isPlainObject(credentials.value)) return '';
    return [region, project, JSON.stringify(credentials.value)].join('|');
  }
  return '';
}

/** Integers arrive as numbers from the console and sometimes as numeric text from scripts. */
function integerField(message: string) {
  return z.unknown().transform((value, context) => {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return number;
  });
}

function nameList(options: { maxItemLength: number; itemMessage: string; pattern?: RegExp }) {
  return z
    .string()
    .transform(normalizeList)
    .refine(
      (list) =>
        list === '' ||
        list
          .split(',')
          .every(
            (item) =>
              item.length <= options.maxItemLength && (!options.pattern || options.pattern.test(item)),
          ),
      options.itemMessage,
    );
}

/**
 * The fields of a channel as the management API accepts them (POST full form, PUT full form or one field).
 * Every field is optional here: the server fills defaults on create and keeps stored values on update, then
 * checks what must be present (name, key, models) on the result.
 */
export const channelFieldsSchema = z.object({
  type: integerField(channelMessages.typeInvalid)
    .refine(isKnownChannelType, channelMessages.typeInvalid)
    .optional(),
  name: z.string().trim().max(128, channelMessages.nameTooLong).optional(),
  key: z.string().optional(),
  base_url: z
    .string()
    .transform(removeTrailingSlashes)
    .refine((url) => url === '' || isHttpUrl(url), channelMessages.baseUrlInvalid)
    .refine((url) => url.length <= 512, channelMessages.baseUrlInvalid)
    .optional(),
  other: z.string().trim().optional(),
  model_mapping: z
    .string()
    .trim()
    .superRefine((text, context) => {
      const problem = findModelMappingProblem(text);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  models: nameList({ maxItemLength: 255, itemMessage: channelMessages.modelNameTooLong }).optional(),
  group: nameList({ maxItemLength: 64, itemMessage: channelMessages.groupInvalid, pattern: /^\S+$/ })
    .refine((list) => list.length <= 255, channelMessages.groupTooLong)
    .optional(),
  config: z
    .string()
    .trim()
    .refine((text) => parseChannelConfig(text) !== null, channelMessages.configInvalid)
    .optional(),
  priority: integerField(channelMessages.priorityInvalid).optional(),
  weight: integerField(channelMessages.weightInvalid)
    .refine((weight) => weight >= 0, channelMessages.weightInvalid)
    .optional(),
  status: integerField(channelMessages.statusInvalid)
    .refine(
      (status) => status === ChannelStatus.enabled || status === ChannelStatus.manuallyDisabled,
      channelMessages.statusInvalid,
    )
    .optional(),
});
export type ChannelFields = z.infer<typeof channelFieldsSchema>;

/** PUT /api/channel/: the id plus the fields to change. */
export const channelUpdateSchema = channelFieldsSchema.extend({
  id: rowIdSchema,
});
export type ChannelUpdate = z.infer<typeof channelUpdateSchema>;

/** Columns the channel list can be sorted by (GET /api/channel/?order=&direction=). */
export const channelSortColumns = [
  'id',
  'name',
  'type',
  'status',
  'response_time',
  'used_quota',
  'balance',
  'priority',
  'weight',
  'test_time',
  'created_time',
] as const;
export type ChannelSortColumn = (typeof channelSortColumns)[number];

/** One entry of GET /api/channel/models (the OpenAI model object shape). */
export interface KnownModel {
  id: string;
  object: 'model';
  owned_by: string;
}

/** GET /api/channel/test/{id} answer. */
export interface ChannelTestResult {
  success: boolean;
  message: string;
  time: number;
  model: string;
}
