import { usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'mistral-large-latest',
  'mistral-medium-latest',
  'mistral-small-latest',
  'ministral-8b-latest',
  'ministral-3b-latest',
  'codestral-latest',
  'pixtral-large-latest',
  'open-mistral-nemo',
  'open-mistral-7b',
  'open-mixtral-8x7b',
  'open-mixtral-8x22b',
  'mistral-embed',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://mistral.ai/pricing#api-pricing
  'mistral-large-latest': usd(2, 6),
  'mistral-medium-latest': usd(0.4, 2),
  'mistral-small-latest': usd(0.1, 0.3),
  'open-mistral-nemo': usd(0.15),
  'codestral-latest': usd(0.3, 0.9),
  'open-mistral-7b': usd(0.25),
  'open-mixtral-8x7b': usd(0.7),
  'open-mixtral-8x22b': usd(2, 6),
  'ministral-8b-latest': usd(0.1),
  'ministral-3b-latest': usd(0.04),
  'pixtral-large-latest': usd(2, 6),
  'pixtral-12b': usd(0.15),
  'mistral-embed': usd(0.1),
};

/**
 * Mistral AI: the OpenAI format under /v1 (https://docs.mistral.ai/api/). It refuses a conversation whose tool
 * call ids are not nine letters and digits ("Tool call id was … but must be a-z, A-Z, 0-9, with a length of
 * 9"), which ids made by any other vendor are not.
 */
export const mistralVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'mistral',
  prefix: '/v1',
  offers: ['embeddings'],
  models,
  prices,
  toolCallIds: { maxLength: 9, pattern: /^[A-Za-z0-9]{9}$/ },
});
