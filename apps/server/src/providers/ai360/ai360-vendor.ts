import { same, yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  '360gpt-pro',
  '360gpt-turbo',
  '360gpt2-pro',
  '360gpt-turbo-responsibility-8k',
  'embedding-bert-512-v1',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://ai.360.com/platform/docs/overview
  ...same(yuan(12), ['360GPT_S2_V9', '360gpt-pro']),
  ...same(yuan(1), ['embedding-bert-512-v1', 'embedding_s1_v1', 'semantic_similarity_s1_v1']),
};

/**
 * 360 Zhinao: the OpenAI format (https://ai.360.com/platform/docs/overview).
 */
export const ai360Vendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: '360',
  prefix: '/v1',
  offers: ['embeddings'],
  models,
  prices,
  unpriced: [
    {
      names: ['360gpt-turbo', '360gpt2-pro', '360gpt-turbo-responsibility-8k'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
