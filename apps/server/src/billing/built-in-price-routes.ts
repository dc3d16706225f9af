import type { FastifyInstance } from 'fastify';
import {
  modelPriceOptionKeys,
  type BuiltInPriceRow,
  type BuiltInPriceTable,
  type ModelPriceOptionKey,
  type ModelPriceRatios,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { ok } from '../http/envelope';
import type { OptionStore } from '../options/option-store';
import { defaultModelPrices, type ModelPrice } from './default-model-prices';
import { findModelRatios, readRatios } from './pricing';

const USD_PER_MILLION_AT_RATIO_1 = 2;

function toRatios(price: ModelPrice): ModelPriceRatios {
  return {
    model_ratio: price.modelRatio,
    completion_ratio: price.completionRatio,
    cache_read_ratio: price.cacheReadRatio ?? 1,
    cache_write_ratio: price.cacheWriteRatio ?? 1,
    call_price: null,
  };
}

/**
 * Every model the gateway prices: the built-in table of the vendor folders and the models the price options
 * add, each with its built-in price, the price the relay charges now and the options that set it.
 */
export function listBuiltInPrices(options: OptionStore): BuiltInPriceTable {
  const set = Object.fromEntries(
    modelPriceOptionKeys.map((key) => [key, readRatios(options, key)]),
  ) as Record<ModelPriceOptionKey, Readonly<Record<string, number>>>;
  const names = new Set(Object.keys(defaultModelPrices));
  for (const key of modelPriceOptionKeys) for (const name of Object.keys(set[key])) names.add(name);
  const models: BuiltInPriceRow[] = [];
  for (const model of [...names].sort((a, b) => a.localeCompare(b))) {
    const builtIn = Object.prototype.hasOwnProperty.call(defaultModelPrices, model)
      ? toRatios(defaultModelPrices[model])
      : null;
    const ratios = findModelRatios(options, model);
    const effective: ModelPriceRatios = ratios
      ? {
          model_ratio: ratios.modelRatio,
          completion_ratio: ratios.completionRatio,
          cache_read_ratio: ratios.cacheReadRatio,
          cache_write_ratio: ratios.cacheWriteRatio,
          call_price: ratios.callPrice ?? null,
        }
      : // Only a completion or cache ratio names the model: it has no price and the relay refuses it.
        { model_ratio: 0, completion_ratio: 1, cache_read_ratio: 1, cache_write_ratio: 1, call_price: null };
    const overriddenBy = modelPriceOptionKeys.filter((key) =>
      Object.prototype.hasOwnProperty.call(set[key], model),
    );
    models.push({
      model,
      built_in: builtIn,
      effective,
      overridden_by: overriddenBy,
      is_priced: ratios !== null,
    });
  }
  return { usd_per_million_at_ratio_1: USD_PER_MILLION_AT_RATIO_1, models };
}

/** GET /api/pricing/built-in — the built-in price table beside the price options, for the admins who edit them. */
export function registerBuiltInPriceRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);
  app.get('/api/pricing/built-in', { preHandler: admin }, async () => ok(listBuiltInPrices(context.options)));
}
