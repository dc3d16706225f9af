import { listVendors } from '../providers/provider-registry';
import type { ModelPrice } from '../providers/model-prices';

export type { ModelPrice } from '../providers/model-prices';

/**
 * Built-in prices of every model a vendor folder prices (`providers/<vendor>/`), by model name: what the
 * relay charges when the ModelRatio and CompletionRatio options say nothing about a model. Two vendors never
 * price one name differently (provider-registry.test.ts checks it).
 */
export const defaultModelPrices: Readonly<Record<string, ModelPrice>> = Object.assign(
  {},
  ...listVendors().map((vendor) => vendor.prices),
) as Record<string, ModelPrice>;
