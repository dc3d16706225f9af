import { usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'meta-llama/llama-3.3-70b-instruct',
  'meta-llama/llama-3.1-8b-instruct',
  'meta-llama/llama-3.1-70b-instruct',
  'deepseek/deepseek-v3',
  'deepseek/deepseek-r1',
  'qwen/qwen-2.5-72b-instruct',
  'mistralai/mistral-nemo',
  'google/gemma-2-9b-it',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://novita.ai/pricing
  'meta-llama/llama-3.1-8b-instruct': usd(0.05),
  'meta-llama/llama-3.3-70b-instruct': usd(0.39),
  'deepseek/deepseek-v3-0324': usd(0.28, 1.14),
  'deepseek/deepseek-r1': usd(0.7, 2.5),
};

/**
 * Novita: the default base URL already ends in /v3/openai (https://novita.ai/docs/guides/llm-api).
 */
export const novitaVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'novita',
  prefix: '',
  offers: ['completions', 'embeddings'],
  models,
  prices,
  unpriced: [
    {
      names: [
        'meta-llama/llama-3.1-70b-instruct',
        'deepseek/deepseek-v3',
        'qwen/qwen-2.5-72b-instruct',
        'mistralai/mistral-nemo',
        'google/gemma-2-9b-it',
      ],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
