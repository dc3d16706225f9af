import { modelPriceOptionKeys } from '@gatehouse/shared';
import { entryOf, newMap } from '../map-entry';
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
  /** an audio / image prompt token, relative to a fresh text one */
  audioInputRatio: number;
  imageInputRatio: number;
  /** an audio / image completion token, relative to a text one */
  audioOutputRatio: number;
  imageOutputRatio: number;
  groupRatio: number;
  /**
   * US dollars per call for a model the ModelPrice option prices per call: the call costs this × quota per
   * dollar × group ratio, whatever its tokens; absent for models priced by tokens
   */
  callPrice?: number;
}

export type ModelRatios = Omit<Pricing, 'groupRatio'>;

type RatioKey =
  | 'ModelRatio'
  | 'CompletionRatio'
  | 'CacheReadRatio'
  | 'CacheWriteRatio'
  | 'AudioInputRatio'
  | 'ImageInputRatio'
  | 'AudioOutputRatio'
  | 'ImageOutputRatio'
  | 'GroupRatio'
  | 'ModelPrice';

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

export function readRatios(options: OptionStore, key: RatioKey): RatioMap {
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
 * The ratios of a model, or null when the model has no price: neither the ModelRatio or ModelPrice option nor
 * the built-in table knows it. The relay refuses such models rather than guess a price. Each ratio comes from
 * its option first, then the built-in table; cache tokens of a model no one gave cache prices cost what fresh
 * input does, and audio or image tokens of a model no one gave media prices cost what text tokens do. A ModelPrice entry prices the model per call, over any ratio.
 */
export function findModelRatios(options: OptionStore, model: string): ModelRatios | null {
  const builtIn = Object.prototype.hasOwnProperty.call(defaultModelPrices, model)
    ? defaultModelPrices[model]
    : undefined;
  const callPrice = own(readRatios(options, 'ModelPrice'), model);
  const modelRatio = own(readRatios(options, 'ModelRatio'), model) ?? builtIn?.modelRatio;
  if (modelRatio === undefined && callPrice === undefined) return null;
  return {
    ...(callPrice === undefined ? {} : { callPrice }),
    modelRatio: modelRatio ?? 0,
    completionRatio: own(readRatios(options, 'CompletionRatio'), model) ?? builtIn?.completionRatio ?? 1,
    cacheReadRatio: own(readRatios(options, 'CacheReadRatio'), model) ?? builtIn?.cacheReadRatio ?? 1,
    cacheWriteRatio: own(readRatios(options, 'CacheWriteRatio'), model) ?? builtIn?.cacheWriteRatio ?? 1,
    audioInputRatio: own(readRatios(options, 'AudioInputRatio'), model) ?? builtIn?.audioInputRatio ?? 1,
    imageInputRatio: own(readRatios(options, 'ImageInputRatio'), model) ?? builtIn?.imageInputRatio ?? 1,
    audioOutputRatio: own(readRatios(options, 'AudioOutputRatio'), model) ?? builtIn?.audioOutputRatio ?? 1,
    imageOutputRatio: own(readRatios(options, 'ImageOutputRatio'), model) ?? builtIn?.imageOutputRatio ?? 1,
  };
}

/** A group missing from GroupRatio pays the plain price. */
export function getGroupRatio(options: OptionStore, group: string): number {
  return own(readRatios(options, 'GroupRatio'), group) ?? 1;
}

/** Every option a pricing is read from: a cached one stands while each of them parses to the same map. */
const PRICING_OPTIONS: readonly RatioKey[] = [...modelPriceOptionKeys, 'GroupRatio'];

interface CachedPricing {
  /** readRatios' maps of PRICING_OPTIONS when the pricing was made (they are replaced when an option changes) */
  sources: RatioMap[];
  pricing: Readonly<Pricing>;
}

/** By option store, then group, then model: only priced models are kept, so the maps stay small. */
const pricingCaches = new WeakMap<OptionStore, Map<string, Map<string, CachedPricing>>>();

function isCurrent(options: OptionStore, sources: readonly RatioMap[]): boolean {
  for (let index = 0; index < PRICING_OPTIONS.length; index += 1) {
    if (readRatios(options, PRICING_OPTIONS[index]) !== sources[index]) return false;
  }
  return true;
}

/**
 * The pricing of a model for a group (its ratios and the group's), or null when the model has no price. Every
 * relay request needs one: it is made once and shared, frozen, until one of its options changes, instead of
 * being assembled from ten options per request (describePricing's text is then kept with it too).
 */
export function findPricing(options: OptionStore, model: string, group: string): Readonly<Pricing> | null {
  const byModel = entryOf(entryOf(pricingCaches, options, newMap), group, newMap);
  const cached = byModel.get(model);
  if (cached && isCurrent(options, cached.sources)) return cached.pricing;
  const ratios = findModelRatios(options, model);
  if (!ratios) return null;
  // Assigned, not `{ ...ratios, groupRatio }`: V8 builds a spread followed by more fields on a slow path.
  const pricing = Object.freeze(Object.assign({ groupRatio: getGroupRatio(options, group) }, ratios));
  byModel.set(model, { sources: PRICING_OPTIONS.map((key) => readRatios(options, key)), pricing });
  return pricing;
}

/** The media ratios that differ from 1, for the log's text (most models price every token alike). */
function mediaRatioText(pricing: Readonly<Pricing>, format: (value: number) => string): string {
  const ratios: [string, number][] = [
    ['audio input ratio', pricing.audioInputRatio],
    ['image input ratio', pricing.imageInputRatio],
    ['audio output ratio', pricing.audioOutputRatio],
    ['image output ratio', pricing.imageOutputRatio],
  ];
  return ratios
    .filter(([, value]) => value !== 1)
    .map(([name, value]) => `${name} ${format(value)}, `)
    .join('');
}

/** The texts of the shared pricings findPricing hands out; one that may change (not frozen) is not kept. */
const descriptions = new WeakMap<Readonly<Pricing>, string>();

/** The pricing as the consumption log's text says it. */
export function describePricing(pricing: Readonly<Pricing>): string {
  const described = descriptions.get(pricing);
  if (described !== undefined) return described;
  const text = writePricing(pricing);
  if (Object.isFrozen(pricing)) descriptions.set(pricing, text);
  return text;
}

function writePricing(pricing: Readonly<Pricing>): string {
  const format = (value: number) => String(Math.round(value * 1e6) / 1e6);
  if (pricing.callPrice !== undefined) {
    return `price per call $${format(pricing.callPrice)}, group ratio ${format(pricing.groupRatio)}`;
  }
  return (
    `model ratio ${format(pricing.modelRatio)}, completion ratio ${format(pricing.completionRatio)}, ` +
    `cache read ratio ${format(pricing.cacheReadRatio)}, cache write ratio ${format(pricing.cacheWriteRatio)}, ` +
    mediaRatioText(pricing, format) +
    `group ratio ${format(pricing.groupRatio)}`
  );
}

export function unpricedModelMessage(model: string): string {
  return (
    `The model "${model}" has no price on this gateway: an administrator must set its ratio in ModelRatio ` +
    'or its price per call in ModelPrice (Operation settings) before it can be used'
  );
}
