import { usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo',
  'meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo',
  'deepseek-ai/DeepSeek-V3',
  'deepseek-ai/DeepSeek-R1',
  'Qwen/Qwen2.5-72B-Instruct-Turbo',
  'Qwen/Qwen2.5-Coder-32B-Instruct',
  'mistralai/Mixtral-8x7B-Instruct-v0.1',
  'openai/gpt-oss-120b',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://www.together.ai/pricing
  'meta-llama/Llama-3.3-70B-Instruct-Turbo': usd(0.88),
  'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo': usd(0.18),
  'meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo': usd(3.5),
  'Qwen/Qwen2.5-72B-Instruct-Turbo': usd(1.2),
  'mistralai/Mixtral-8x7B-Instruct-v0.1': usd(0.6),
};

/**
 * together.ai: the OpenAI format (https://docs.together.ai/docs/openai-api-compatibility).
 */
export const togetherVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'together',
  prefix: '/v1',
  offers: ['completions', 'embeddings', 'images'],
  models,
  prices,
  unpriced: [
    {
      names: ['Qwen/Qwen2.5-Coder-32B-Instruct'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
