import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';
import { openAIModels, openAIPrices } from './openai-models';

/**
 * The OpenAI API itself (https://platform.openai.com/docs/api-reference), and the resellers that mirror all
 * of it under /v1 (API2D, CloseAI, OpenAI-SB, OpenAI Max, OhMyGPT, AI.LS, AI Proxy, API2GPT, AIGC2D): the
 * same adapter, models and prices, at their own default base URLs.
 */
export const openAIVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'openai',
  prefix: '/v1',
  offers: 'all',
  models: openAIModels,
  prices: openAIPrices,
});
