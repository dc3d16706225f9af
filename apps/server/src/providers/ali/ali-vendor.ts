import { yuan, type ModelPrice } from '../model-prices';
import { dashScopeAdapter } from '../dashscope/dashscope-adapter';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'qwen-turbo',
  'qwen-plus',
  'qwen-max',
  'qwen-max-longcontext',
  'qwen-long',
  'qwen-vl-plus',
  'qwen-vl-max',
  'qwen-coder-plus',
  'qwen-math-plus',
  'qwq-plus',
  'qwen3-max',
  'qwen3-235b-a22b',
  'qwen3-32b',
  'text-embedding-v1',
  'text-embedding-v2',
  'text-embedding-v3',
  'wanx-v1',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://help.aliyun.com/zh/model-studio/models
  'qwen-turbo': yuan(0.3, 0.6),
  'qwen-plus': yuan(0.8, 2),
  'qwen-max': yuan(2.4, 9.6),
  'qwen-long': yuan(0.5, 2),
  'qwen-vl-plus': yuan(1.5, 4.5),
  'qwen-vl-max': yuan(3, 9),
  'qwen-coder-plus': yuan(3.5, 7),
  'qwen-coder-turbo': yuan(2, 6),
  'qwen-math-plus': yuan(4, 12),
  'qwq-plus': yuan(1.6, 4),
  'qwen3-max': yuan(6, 24),
  'qwen2.5-72b-instruct': yuan(4, 12),
  'qwen2.5-32b-instruct': yuan(2, 6),
  'qwen2.5-14b-instruct': yuan(1, 3),
  'qwen2.5-7b-instruct': yuan(0.5, 1),
  'deepseek-r1': yuan(4, 16),
  'deepseek-v3': yuan(2, 8),
  'text-embedding-v1': yuan(0.7),
  'text-embedding-v2': yuan(0.7),
  'text-embedding-v3': yuan(0.5),
};

/**
 * Alibaba Tongyi Qianwen through DashScope's native API (providers/dashscope): text and multimodal
 * generation, incremental streams, tools, web search and embeddings.
 */
export const aliVendor: VendorDescriptor = {
  isSupported: true,
  adapter: dashScopeAdapter,
  keyFormat: 'API key',
  models,
  prices,
  unpriced: [
    {
      names: ['qwen-max-longcontext', 'qwen3-235b-a22b', 'qwen3-32b', 'wanx-v1'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
};
