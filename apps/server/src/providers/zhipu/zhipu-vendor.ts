import { ratio, yuan, YUAN_PER_USD, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'glm-4.6',
  'glm-4.5',
  'glm-4.5-air',
  'glm-4-plus',
  'glm-4',
  'glm-4-air',
  'glm-4-airx',
  'glm-4-flash',
  'glm-4-long',
  'glm-4v',
  'glm-4v-plus',
  'glm-3-turbo',
  'embedding-2',
  'embedding-3',
  'cogview-3',
  'cogview-3-plus',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://open.bigmodel.cn/pricing
  'glm-4-plus': yuan(5),
  'glm-4-air': yuan(0.5),
  'glm-4-airx': yuan(10),
  'glm-4-long': yuan(1),
  'glm-4-flash': yuan(0),
  'glm-4': yuan(100),
  'glm-4v': yuan(50),
  'glm-4v-plus': yuan(4),
  'glm-3-turbo': yuan(1),
  'glm-4.5': yuan(2, 8),
  'glm-4.5-air': yuan(0.8, 2),
  'glm-4.6': yuan(2, 8),
  'embedding-2': yuan(0.5),
  'embedding-3': yuan(0.5),
  // CogView is per image: 0.1 yuan.
  'cogview-3-plus': ratio(0.1 / YUAN_PER_USD / 0.002),
};

/**
 * Zhipu GLM: the v4 API speaks the OpenAI format with the API key as bearer
 * (https://open.bigmodel.cn/dev/api).
 */
export const zhipuVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'zhipu',
  prefix: '/api/paas/v4',
  offers: ['embeddings', 'images'],
  models,
  prices,
  unpriced: [
    {
      names: ['cogview-3'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
