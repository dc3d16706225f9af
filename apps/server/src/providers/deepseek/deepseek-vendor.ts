import { cached, usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = ['deepseek-chat', 'deepseek-reasoner'];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://api-docs.deepseek.com/quick_start/pricing: a cache hit costs $0.07 and $0.14 on these prices.
  'deepseek-chat': cached(usd(0.27, 1.1), { read: 0.07 / 0.27, write: 1 }),
  'deepseek-reasoner': cached(usd(0.55, 2.19), { read: 0.14 / 0.55, write: 1 }),
};

/**
 * DeepSeek: the OpenAI format (https://api-docs.deepseek.com/).
 */
export const deepSeekVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'deepseek',
  prefix: '/v1',
  offers: [],
  models,
  prices,
});
