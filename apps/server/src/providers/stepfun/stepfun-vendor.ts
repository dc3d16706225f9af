import { yuan, type ModelPrice } from '../model-prices';
import { openAICompatibleVendor } from '../openai-compatible/openai-compatible-vendor';
import type { VendorDescriptor } from '../vendor-descriptor';

const models: readonly string[] = [
  'step-1-8k',
  'step-1-32k',
  'step-1-128k',
  'step-1-256k',
  'step-1-flash',
  'step-2-16k',
  'step-2-mini',
  'step-1v-8k',
  'step-1v-32k',
  'step-1o-turbo-vision',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://platform.stepfun.com/docs/pricing/details
  'step-1-8k': yuan(5, 20),
  'step-1-32k': yuan(15, 70),
  'step-1-128k': yuan(40, 200),
  'step-1-256k': yuan(95, 300),
  'step-1-flash': yuan(1, 4),
  'step-2-16k': yuan(38, 120),
  'step-2-mini': yuan(1, 2),
  'step-1v-8k': yuan(5, 20),
  'step-1v-32k': yuan(15, 70),
};

/**
 * StepFun: the OpenAI format (https://platform.stepfun.com/docs/overview/concept).
 */
export const stepFunVendor: VendorDescriptor = openAICompatibleVendor({
  wireFormat: 'stepfun',
  prefix: '/v1',
  offers: ['images', 'audioSpeech', 'audioTranscriptions'],
  models,
  prices,
  unpriced: [
    {
      names: ['step-1o-turbo-vision'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
});
