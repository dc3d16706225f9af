import type { ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { cozeAdapter } from './coze-adapter';

const models: readonly string[] = [];

const prices: Readonly<Record<string, ModelPrice>> = {};

/**
 * Coze answers with bots: the model names are the bot ids of the admin's own workspace, priced in
 * ModelRatio.
 */
export const cozeVendor: VendorDescriptor = {
  isSupported: true,
  adapter: cozeAdapter,
  keyFormat: 'API token',
  models,
  prices,
};
