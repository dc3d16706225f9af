import { yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'yi-lightning',
  'yi-large',
  'yi-large-turbo',
  'yi-large-rag',
  'yi-medium',
  'yi-medium-200k',
  'yi-spark',
  'yi-vision',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://platform.lingyiwanwu.com/docs/pricing
  'yi-lightning': yuan(0.99),
  'yi-large': yuan(20),
  'yi-large-turbo': yuan(12),
  'yi-medium': yuan(2.5),
  'yi-spark': yuan(1),
  'yi-vision': yuan(6),
  'yi-34b-chat-0205': yuan(2.5),
  'yi-34b-chat-200k': yuan(12),
  'yi-vl-plus': yuan(6),
};

/**
 * 01.AI (Yi): the OpenAI format (https://platform.lingyiwanwu.com/docs).
 */
export const lingYiWanWuVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: '01-ai',
  prefix: '/v1',
  offers: [],
  models,
  prices,
  unpriced: [
    {
      names: ['yi-large-rag', 'yi-medium-200k'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
