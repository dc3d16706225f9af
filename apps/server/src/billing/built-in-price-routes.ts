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
import { defaultModelPrices } from './default-model-prices';
import { toPriceRatios } from './price-ratios-wire';
import { findModelRatios, readRatios } from './pricing';

const USD_PER_MILLION_AT_RATIO_1 = 2;

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
      ? toPriceRatios(defaultModelPrices[model])
      : null;
    const ratios = findModelRatios(options, model);
    // Only a completion, cache or media ratio names the model: it has no price and the relay refuses it.
    const effective: ModelPriceRatios = toPriceRatios(ratios ?? { modelRatio: 0, completionRatio: 1 });
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
