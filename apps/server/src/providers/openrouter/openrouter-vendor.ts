import { same, usd, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'openai/gpt-4o',
  'openai/gpt-4o-mini',
  'openai/gpt-4.1',
  'openai/gpt-5',
  'anthropic/claude-3.5-sonnet',
  'anthropic/claude-sonnet-4',
  'anthropic/claude-sonnet-4.5',
  'google/gemini-2.5-pro',
  'google/gemini-2.5-flash',
  'meta-llama/llama-3.3-70b-instruct',
  'deepseek/deepseek-chat',
  'deepseek/deepseek-r1',
  'mistralai/mistral-large',
  'qwen/qwen-2.5-72b-instruct',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // OpenRouter charges the first-party vendor's own list price for these
  // (https://openrouter.ai/docs/faq#pricing-and-fees); per million tokens.
  'openai/gpt-4o': usd(2.5, 10),
  'openai/gpt-4o-mini': usd(0.15, 0.6),
  'openai/gpt-4.1': usd(2, 8),
  'openai/gpt-5': usd(1.25, 10),
  ...same(usd(3, 15), [
    'anthropic/claude-3.5-sonnet',
    'anthropic/claude-sonnet-4',
    'anthropic/claude-sonnet-4.5',
  ]),
  'google/gemini-2.5-pro': usd(1.25, 10),
  'google/gemini-2.5-flash': usd(0.3, 2.5),
  'mistralai/mistral-large': usd(2, 6),
};

/**
 * OpenRouter: the OpenAI format under /api/v1 (https://openrouter.ai/docs/api-reference/overview).
 */
export const openRouterVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'openrouter',
  prefix: '/v1',
  offers: ['completions'],
  models,
  prices,
  unpriced: [
    {
      names: ['deepseek/deepseek-chat', 'qwen/qwen-2.5-72b-instruct'],
      reason:
        'OpenRouter routes these to third-party hosts whose prices differ: an administrator sets the ratio in ModelRatio',
    },
  ],
});
