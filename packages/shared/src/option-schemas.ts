import { z } from 'zod';

/** PUT /api/option/: values are stored as text; booleans and numbers are accepted and turned into text. */
export const optionUpdateRequestSchema = z.object({
  key: z.string({ error: 'Option key is required' }).trim().min(1, 'Option key is required'),
  value: z
    .union([z.string(), z.number(), z.boolean()], {
      error: 'Option value must be text, a number or a boolean',
    })
    .transform(String),
});
export type OptionUpdateRequest = z.input<typeof optionUpdateRequestSchema>;

/** The ratio options and the name each goes by in the messages. */
export const ratioOptionNames = {
  ModelRatio: 'Model ratio',
  GroupRatio: 'Group ratio',
  CompletionRatio: 'Completion ratio',
  CacheReadRatio: 'Cache read ratio',
  CacheWriteRatio: 'Cache write ratio',
  AudioInputRatio: 'Audio input ratio',
  ImageInputRatio: 'Image input ratio',
  AudioOutputRatio: 'Audio output ratio',
  ImageOutputRatio: 'Image output ratio',
  ModelPrice: 'Model price',
} as const;
export type RatioOptionKey = keyof typeof ratioOptionNames;

export function isRatioOptionKey(key: string): key is RatioOptionKey {
  return Object.prototype.hasOwnProperty.call(ratioOptionNames, key);
}

export type RatioJsonProblem =
  { kind: 'syntax' } | { kind: 'notObject' } | { kind: 'badValue'; name: string };

/**
 * Checks a ratio option: a JSON object whose values are numbers ≥ 0. Answers what is wrong, or null.
 * Blank text means an empty object (the console shows `{}` as blank).
 */
export function findRatioJsonProblem(text: string): RatioJsonProblem | null {
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'syntax' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { kind: 'notObject' };
  for (const [name, ratio] of Object.entries(parsed)) {
    if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0) return { kind: 'badValue', name };
  }
  return null;
}

/** The message for a ratio option's problem, or null when the text is fine. */
export function findRatioJsonError(key: RatioOptionKey, text: string): string | null {
  const label = ratioOptionNames[key];
  const problem = findRatioJsonProblem(text);
  if (!problem) return null;
  if (problem.kind === 'syntax') return `${label} is not a valid JSON string`;
  if (problem.kind === 'notObject') return `${label} must be a JSON object of names to numbers`;
  return `${label}: the value of "${problem.name}" must be a number not less than 0`;
}

/** Pretty-prints ratio JSON for the editors; `{}` shows blank. Invalid text is left as it is. */
export function formatRatioJson(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 0) return '';
    return JSON.stringify(parsed, null, 2);
  } catch {
    return text;
  }
}

/** Server and push addresses are saved without surrounding blanks or a trailing slash. */
export function normalizeAddress(address: string): string {
  return address.trim().replace(/\/+$/, '');
}

/** The e-mail domain whitelist: lower case, comma separated, no blanks or repeats. */
export function normalizeDomainList(text: string): string {
  const domains = text
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(domains)].join(',');
}

export const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** GET /api/release/latest: the newest published release compared with the running version. */
export interface LatestRelease {
  tag_name: string;
  name: string;
  html_url: string;
  body: string;
  published_at: string;
  current_version: string;
  is_latest: boolean;
}
