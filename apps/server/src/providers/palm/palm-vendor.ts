import { usd, type ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { PALM_RETIRED_REASON } from './validate-palm-channel';

const models: readonly string[] = ['chat-bison-001', 'text-bison-001'];

const prices: Readonly<Record<string, ModelPrice>> = {
  'PaLM-2': usd(2),
};

/**
 * Google PaLM 2, the API Gemini replaced and Google retired: new channels are refused when saved, and a stored
 * one answers the retirement instead of calling a dead endpoint.
 */
export const palmVendor: VendorDescriptor = {
  isSupported: false,
  reason: PALM_RETIRED_REASON,
  keyFormat: 'API key',
  models,
  prices,
  unpriced: [
    {
      names: ['chat-bison-001', 'text-bison-001'],
      reason: 'Google retired the PaLM API; these names are kept for old channels, with no built-in price',
    },
  ],
};
