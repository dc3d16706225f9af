import type { ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'llama3.3',
  'llama3.2',
  'llama3.1',
  'qwen3',
  'qwen2.5',
  'gemma3',
  'mistral',
  'phi4',
  'deepseek-r1',
  'nomic-embed-text',
];

const prices: Readonly<Record<string, ModelPrice>> = {};

/**
 * Ollama on the operator's own machine (https://github.com/ollama/ollama/blob/main/docs/openai.md).
 */
export const ollamaVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'ollama',
  prefix: '/v1',
  offers: ['completions', 'embeddings'],
  models,
  prices,
  unpriced: [
    {
      // Prices follow the model name whatever channel serves it: deepseek-r1 has Alibaba's.
      names: models.filter((name) => name !== 'deepseek-r1'),
      reason:
        'a model Ollama runs on your own machine has no vendor price: set its ratio in ModelRatio (0 bills nothing)',
    },
  ],
});
