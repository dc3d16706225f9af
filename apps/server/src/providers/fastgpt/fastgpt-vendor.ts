import type { ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = ['gpt-3.5-turbo', 'gpt-4', 'gpt-4o', 'gpt-4o-mini'];

const prices: Readonly<Record<string, ModelPrice>> = {};

/**
 * FastGPT's OpenAPI: the OpenAI format with `apikey-appId` as the bearer token. Its models are
 * OpenAI's, priced there.
 */
export const fastGptVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'fastgpt',
  prefix: '/v1',
  offers: [],
  keyFormat: 'APIKey-AppId',
  models,
  prices,
});
