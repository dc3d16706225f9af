import { same, yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'moonshot-v1-8k',
  'moonshot-v1-32k',
  'moonshot-v1-128k',
  'moonshot-v1-auto',
  'kimi-latest',
  'kimi-k2-0905-preview',
  'kimi-k2-turbo-preview',
  'kimi-thinking-preview',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://platform.moonshot.cn/docs/pricing/chat
  'moonshot-v1-8k': yuan(12),
  'moonshot-v1-32k': yuan(24),
  'moonshot-v1-128k': yuan(60),
  ...same(yuan(4, 16), ['kimi-k2-0711-preview', 'kimi-k2-0905-preview']),
};

/**
 * Moonshot AI (Kimi): the OpenAI format (https://platform.moonshot.cn/docs/api/chat).
 */
export const moonshotVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'moonshot',
  prefix: '/v1',
  offers: [],
  models,
  prices,
  unpriced: [
    {
      names: ['moonshot-v1-auto', 'kimi-latest', 'kimi-k2-turbo-preview', 'kimi-thinking-preview'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
