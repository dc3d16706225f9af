import { yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'deepseek-ai/DeepSeek-V3',
  'deepseek-ai/DeepSeek-R1',
  'Qwen/Qwen3-235B-A22B',
  'Qwen/Qwen3-32B',
  'Qwen/Qwen3-8B',
  'Qwen/Qwen2.5-72B-Instruct',
  'Qwen/Qwen2.5-7B-Instruct',
  'THUDM/glm-4-9b-chat',
  'BAAI/bge-m3',
  'BAAI/bge-large-zh-v1.5',
  'black-forest-labs/FLUX.1-schnell',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://siliconflow.cn/pricing
  'deepseek-ai/DeepSeek-V3': yuan(2, 8),
  'deepseek-ai/DeepSeek-R1': yuan(4, 16),
  'Qwen/Qwen2.5-72B-Instruct': yuan(4.13),
  'Qwen/Qwen2.5-7B-Instruct': yuan(0),
  'THUDM/glm-4-9b-chat': yuan(0),
  'BAAI/bge-m3': yuan(0),
};

/**
 * SiliconFlow: the OpenAI format (https://docs.siliconflow.cn/).
 */
export const siliconFlowVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'siliconflow',
  prefix: '/v1',
  offers: ['embeddings', 'images', 'audioSpeech', 'audioTranscriptions'],
  models,
  prices,
  unpriced: [
    {
      names: [
        'Qwen/Qwen3-235B-A22B',
        'Qwen/Qwen3-32B',
        'Qwen/Qwen3-8B',
        'BAAI/bge-large-zh-v1.5',
        'black-forest-labs/FLUX.1-schnell',
      ],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
