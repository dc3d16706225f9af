import type { VendorDescriptor } from '../vendor-descriptor';
import { anthropicAdapter } from './anthropic-adapter';
import { anthropicModels, anthropicPrices } from './anthropic-models';

/**
 * Anthropic (Claude) through its own Messages API: Anthropic clients pass through, every other client is
 * translated (anthropic-adapter.ts). Chat only: Anthropic offers no embeddings, images or audio.
 */
export const anthropicVendor: VendorDescriptor = {
  isSupported: true,
  adapter: anthropicAdapter,
  keyFormat: 'API key (sk-ant-…)',
  models: anthropicModels,
  prices: anthropicPrices,
};
