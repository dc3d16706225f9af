import { same, yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

// Ark also accepts inference endpoint ids (ep-…) as model names; the form says so for this type.
const models: readonly string[] = [
  'doubao-seed-1-6-250615',
  'doubao-seed-1-6-flash-250615',
  'doubao-1-5-pro-32k-250115',
  'doubao-1-5-pro-256k-250115',
  'doubao-1-5-lite-32k-250115',
  'doubao-1-5-vision-pro-32k-250115',
  'Doubao-pro-4k',
  'Doubao-pro-32k',
  'Doubao-pro-128k',
  'Doubao-lite-4k',
  'Doubao-lite-32k',
  'Doubao-lite-128k',
  'Doubao-embedding',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://www.volcengine.com/docs/82379/1544106
  'doubao-seed-1-6-250615': yuan(0.8, 8),
  'doubao-1-5-pro-32k-250115': yuan(0.8, 2),
  'doubao-1-5-lite-32k-250115': yuan(0.3, 0.6),
  'doubao-pro-32k': yuan(0.8, 2),
  'doubao-pro-128k': yuan(5, 9),
  'doubao-lite-32k': yuan(0.3, 0.6),
  'doubao-lite-128k': yuan(0.8, 1),
  'doubao-embedding': yuan(0.5),
  // The console's older capitalised names of the same models.
  ...same(yuan(0.8, 2), ['Doubao-pro-4k', 'Doubao-pro-32k']),
  'Doubao-pro-128k': yuan(5, 9),
  ...same(yuan(0.3, 0.6), ['Doubao-lite-4k', 'Doubao-lite-32k']),
  'Doubao-lite-128k': yuan(0.8, 1),
  'Doubao-embedding': yuan(0.5),
};

/**
 * ByteDance Doubao (Volcengine Ark): the OpenAI format under /api/v3
 * (https://www.volcengine.com/docs/82379/1298454).
 */
export const doubaoVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'doubao',
  prefix: '/api/v3',
  offers: ['embeddings', 'images'],
  models,
  prices,
  unpriced: [
    {
      names: [
        'doubao-seed-1-6-flash-250615',
        'doubao-1-5-pro-256k-250115',
        'doubao-1-5-vision-pro-32k-250115',
      ],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
