import type { OptionKey } from '../options/option-defaults';
import type { OptionStore } from '../options/option-store';
import { defaultModelPrices } from './default-model-prices';

/** The ratios that price one request; the consumption log records each, so a charge can be recomputed. */
export interface Pricing {
  modelRatio: number;
  completionRatio: number;
  /** a prompt token read from the vendor's cache, relative to a fresh one */
  cacheReadRatio: number;
  /** a prompt token written to the vendor's cache, relative to a fresh one */
  cacheWriteRatio: number;
  groupRatio: number;
}

export type ModelRatios = Omit<Pricing, 'groupRatio'>;

type RatioKey = 'ModelRatio' | 'CompletionRatio' | 'CacheReadRatio' | 'CacheWriteRatio' | 'GroupRatio';

type RatioMap = Readonly<Record<string, number>>;

/** Parsed ratio options, re-parsed only when the stored text changes (options are read on every request). */
const parsedRatios = new WeakMap<OptionStore, Map<OptionKey, { text: string; ratios: RatioMap }>>();

function parseRatioMap(text: string): RatioMap {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const ratios: Record<string, number> = {};
  for (const [name, ratio] of Object.entries(value)) {
    if (typeof ratio === 'number' && Number.isFinite(ratio) && ratio >= 0) ratios[name] = ratio;
  }
  return ratios;
}

function readRatios(options: OptionStore, key: RatioKey): RatioMap {
  const text = options.get(key);
  let cache = parsedRatios.get(options);
  if (!cache) {
    cache = new Map();
    parsedRatios.set(options, cache);
  }
  const cached = cache.get(key);
  if (cached && cached.text === text) return cached.ratios;
  const ratios = parseRatioMap(text);
  cache.set(key, { text, ratios });
  return ratios;
}

function own(map: RatioMap, name: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
}

/**
 * The ratios of a model, or null when the model has no price: neither the ModelRatio option nor the built-in
 * table knows it. The relay refuses such models rather than guess a price. Each ratio comes from its option
 * first, then the built-in table; cache tokens of a model no one gave cache prices cost what fresh input does.
 */
export function findModelRatios(options: OptionStore, model: string): ModelRatios | null {
  const builtIn = Object.prototype.hasOwnProperty.call(defaultModelPrices, model)
    ? defaultModelPrices[model]
    : undefined;
  const modelRatio = own(readRatios(options, 'ModelRatio'), model) ?? builtIn?.modelRatio;
  if (modelRatio === undefined) return null;
  return {
    modelRatio,
    completionRatio: own(readRatios(options, 'CompletionRatio'), model) ?? builtIn?.completionRatio ?? 1,
    cacheReadRatio: own(readRatios(options, 'CacheReadRatio'), model) ?? builtIn?.cacheReadRatio ?? 1,
    cacheWriteRatio: own(readRatios(options, 'CacheWriteRatio'), model) ?? builtIn?.cacheWriteRatio ?? 1,
  };
}

/** A group missing from GroupRatio pays the plain price. */
export function getGroupRatio(options: OptionStore, group: string): number {
  return own(readRatios(options, 'GroupRatio'), group) ?? 1;
}

export function describePricing(pricing: Pricing): string {
  const format = (value: number) => String(Math.round(value * 1e6) / 1e6);
  return (
    `model ratio ${format(pricing.modelRatio)}, completion ratio ${format(pricing.completionRatio)}, ` +
    `cache read ratio ${format(pricing.cacheReadRatio)}, cache write ratio ${format(pricing.cacheWriteRatio)}, ` +
    `group ratio ${format(pricing.groupRatio)}`
  );
}

export function unpricedModelMessage(model: string): string {
  return (
    `The model "${model}" has no price on this gateway: an administrator must set its ratio in ModelRatio ` +
    '(Operation settings) before it can be used'
  );
}
