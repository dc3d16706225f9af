import { usd, type ModelPrice } from '../model-prices';
import { openAIModels } from '../openai/openai-models';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

/**
 * Models people commonly reach through a custom channel (any OpenAI-compatible server at the channel's base
 * URL) whose vendor has no channel type of its own.
 */
const prices: Readonly<Record<string, ModelPrice>> = {
  // https://x.ai/api
  'grok-beta': usd(5, 15),
  'grok-2': usd(2, 10),
  'grok-3': usd(3, 15),
  'grok-3-mini': usd(0.3, 0.5),
  'grok-4': usd(3, 15),
};

/** A custom channel: the OpenAI format at the channel's own base URL, which it must have. */
export const customVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'openai',
  prefix: '/v1',
  offers: 'all',
  models: openAIModels,
  prices,
});
