import { queryOptions } from '@tanstack/react-query';
import {
  formatRatioJson,
  type BuiltInPriceRow,
  type BuiltInPriceTable,
  type ModelPriceRatios,
} from '@gatehouse/shared';
import { api } from '../../api/client';
import { optionKeys } from './options-queries';

/** Under the options' key: saving an option refreshes which entries override the table. */
export const builtInPricesQueryOptions = () =>
  queryOptions({
    queryKey: [...optionKeys.all, 'built-in-prices'] as const,
    queryFn: () => api.get<BuiltInPriceTable>('/api/pricing/built-in'),
  });

/** The ratio options the built-in table fills; ModelPrice has no built-in entries and is left alone. */
export const copiedOptionKeys = [
  'ModelRatio',
  'CompletionRatio',
  'CacheReadRatio',
  'CacheWriteRatio',
  'AudioInputRatio',
  'ImageInputRatio',
  'AudioOutputRatio',
  'ImageOutputRatio',
] as const;
export type CopiedOptionKey = (typeof copiedOptionKeys)[number];

/** merge: the built-in table with what is set on top (set entries win); replace: the built-in table alone. */
export type CopyMode = 'merge' | 'replace';

/** US dollars per million tokens, per each kind of token, at a model's ratios. */
export interface TokenPrices {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export function pricesOf(ratios: ModelPriceRatios, usdAtRatio1: number): TokenPrices {
  const input = ratios.model_ratio * usdAtRatio1;
  return {
    input,
    output: input * ratios.completion_ratio,
    cacheRead: input * ratios.cache_read_ratio,
    cacheWrite: input * ratios.cache_write_ratio,
  };
}

/** "$2.50", "$0.075": up to 4 decimals, at least 2. */
export function formatUsd(value: number): string {
  const [whole, decimals = ''] = String(Number(value.toFixed(4))).split('.');
  return `$${whole}.${decimals.padEnd(2, '0')}`;
}

export function filterPriceRows(rows: BuiltInPriceRow[], keyword: string): BuiltInPriceRow[] {
  const wanted = keyword.trim().toLowerCase();
  return wanted === '' ? rows : rows.filter((row) => row.model.toLowerCase().includes(wanted));
}

const ratioOf: Record<CopiedOptionKey, keyof ModelPriceRatios> = {
  ModelRatio: 'model_ratio',
  CompletionRatio: 'completion_ratio',
  CacheReadRatio: 'cache_read_ratio',
  CacheWriteRatio: 'cache_write_ratio',
  AudioInputRatio: 'audio_input_ratio',
  ImageInputRatio: 'image_input_ratio',
  AudioOutputRatio: 'audio_output_ratio',
  ImageOutputRatio: 'image_output_ratio',
};

function builtInEntries(rows: BuiltInPriceRow[], key: CopiedOptionKey): Record<string, number> {
  const entries: Record<string, number> = {};
  const isAlwaysKept = key === 'ModelRatio' || key === 'CompletionRatio';
  for (const { model, built_in: builtIn } of rows) {
    if (!builtIn) continue;
    const value = builtIn[ratioOf[key]] as number;
    // A cache or media ratio of 1 is what an unset one means: left out, so the option holds only what says
    // something.
    if (isAlwaysKept || value !== 1) entries[model] = value;
  }
  return entries;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The text of each ratio option after copying the built-in table into it, for the admin to review and save:
 * merged, the entries already in the field stay and win over the built-in ones; replaced, only the built-in
 * table remains (entries for models it lacks are dropped).
 */
export function copyBuiltInTable(
  rows: BuiltInPriceRow[],
  current: Record<string, string>,
  mode: CopyMode,
): Record<CopiedOptionKey, string> {
  const texts = {} as Record<CopiedOptionKey, string>;
  for (const key of copiedOptionKeys) {
    const builtIn = builtInEntries(rows, key);
    const merged = mode === 'merge' ? { ...builtIn, ...parseObject(current[key] ?? '') } : builtIn;
    // An empty object reads as blank, as the fields show one: a field with nothing to copy stays unchanged.
    texts[key] = formatRatioJson(JSON.stringify(merged));
  }
  return texts;
}
