import type { ModelPrice } from './model-prices';
import type { ProviderAdapter } from './provider-types';

/** Listed models without a built-in price, on purpose: an administrator prices them in ModelRatio. */
export interface UnpricedModels {
  names: readonly string[];
  /** why there is no built-in price (local models, prices per plan, a retired API …) */
  reason: string;
}

/**
 * Everything the server knows about one vendor, exported by `providers/<vendor>/<vendor>-vendor.ts` and
 * registered for its channel type(s) in provider-registry.ts. The console's display row of the type (name,
 * colour, the default base URL it shows and the relay falls back to, the key hint) is in packages/shared,
 * which the console can read; everything the server does with the type is here.
 */
interface VendorFacts {
  /** how the channel's key is written, for messages and docs */
  readonly keyFormat: string;
  /** model names the vendor is known to serve: the channel form's "fill related models" */
  readonly models: readonly string[];
  /** built-in prices of its models (and of other names they are asked for under) */
  readonly prices: Readonly<Record<string, ModelPrice>>;
  readonly unpriced?: readonly UnpricedModels[];
}

/**
 * A vendor with its adapter (which endpoints it serves are the adapter's capabilities), or one this version
 * cannot call yet, saying why: the relay answers that instead of calling it, and its models and prices are
 * still known.
 */
export type VendorDescriptor = VendorFacts &
  ({ isSupported: true; adapter: ProviderAdapter } | { isSupported: false; reason: string });
