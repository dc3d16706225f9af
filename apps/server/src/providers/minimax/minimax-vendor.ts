import { yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'MiniMax-M2',
  'MiniMax-M1',
  'MiniMax-Text-01',
  'abab6.5s-chat',
  'abab6.5g-chat',
  'abab6.5-chat',
  'abab5.5-chat',
  'abab5.5s-chat',
  'embo-01',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://platform.minimaxi.com/document/Price
  'MiniMax-Text-01': yuan(1, 8),
  'MiniMax-M1': yuan(0.8, 8),
  'MiniMax-M2': yuan(2.1, 8.4),
  'abab6.5s-chat': yuan(1),
  'abab6.5g-chat': yuan(5),
  'abab6.5-chat': yuan(30),
  'abab5.5-chat': yuan(15),
  'abab5.5s-chat': yuan(5),
};

/**
 * MiniMax: the OpenAI format (https://platform.minimax.io/docs/api-reference/text-openai-api).
 */
export const miniMaxVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'minimax',
  prefix: '/v1',
  offers: [],
  models,
  prices,
  unpriced: [
    {
      names: ['embo-01'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
