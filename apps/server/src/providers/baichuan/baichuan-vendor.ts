import { yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'Baichuan4',
  'Baichuan4-Turbo',
  'Baichuan4-Air',
  'Baichuan3-Turbo',
  'Baichuan3-Turbo-128k',
  'Baichuan2-Turbo',
  'Baichuan2-Turbo-192k',
  'Baichuan-Text-Embedding',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://platform.baichuan-ai.com/price
  Baichuan4: yuan(100),
  'Baichuan3-Turbo': yuan(12),
  'Baichuan3-Turbo-128k': yuan(24),
  'Baichuan2-Turbo': yuan(8),
  'Baichuan-Text-Embedding': yuan(0.5),
};

/**
 * Baichuan: the OpenAI format (https://platform.baichuan-ai.com/docs/api).
 */
export const baichuanVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'baichuan',
  prefix: '/v1',
  offers: ['embeddings'],
  models,
  prices,
  unpriced: [
    {
      names: ['Baichuan4-Turbo', 'Baichuan4-Air', 'Baichuan2-Turbo-192k'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
