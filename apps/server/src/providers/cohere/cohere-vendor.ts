import { usd, type ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { cohereAdapter } from './cohere-adapter';

const models: readonly string[] = [
  'command-a-03-2025',
  'command-r-plus',
  'command-r',
  'command-r7b-12-2024',
  'command',
  'command-light',
  'embed-v4.0',
  'embed-english-v3.0',
  'embed-multilingual-v3.0',
  'rerank-v3.5',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://docs.cohere.com/docs/how-does-cohere-pricing-work
  'command-r': usd(0.15, 0.6),
  'command-r-plus': usd(2.5, 10),
  'command-r7b-12-2024': usd(0.0375, 0.15),
  'command-a-03-2025': usd(2.5, 10),
  command: usd(1, 2),
  'command-light': usd(0.3, 0.6),
  'embed-english-v3.0': usd(0.1),
  'embed-multilingual-v3.0': usd(0.1),
};

/** Cohere through its native v2 API (https://docs.cohere.com/reference/chat): chat and embeddings. */
export const cohereVendor: VendorDescriptor = {
  isSupported: true,
  adapter: cohereAdapter,
  keyFormat: 'API key',
  models,
  prices,
  unpriced: [
    {
      names: ['embed-v4.0', 'rerank-v3.5'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
};
