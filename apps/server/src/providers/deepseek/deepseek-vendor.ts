import { cached, usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = ['deepseek-chat', 'deepseek-reasoner'];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://api-docs.deepseek.com/quick_start/pricing (both names serve DeepSeek-V3.2 since the price cut announced
  // at https://api-docs.deepseek.com/news/news250929): $0.28 per 1M input tokens, $0.028 on a cache hit, $0.42
  // per 1M output tokens, the same for both.
  'deepseek-chat': cached(usd(0.28, 0.42), { read: 0.1, write: 1 }),
  'deepseek-reasoner': cached(usd(0.28, 0.42), { read: 0.1, write: 1 }),
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
