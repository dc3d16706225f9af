import type { VendorDescriptor } from '../vendor-descriptor';
import { cloudflareAdapter } from './cloudflare-adapter';

const models: readonly string[] = [
  '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
  '@cf/meta/llama-3.1-8b-instruct',
  '@cf/meta/llama-3.2-3b-instruct',
  '@cf/openai/gpt-oss-120b',
  '@cf/openai/gpt-oss-20b',
  '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b',
  '@cf/qwen/qwq-32b',
  '@cf/mistral/mistral-7b-instruct-v0.1',
  '@cf/google/gemma-3-12b-it',
  '@cf/baai/bge-base-en-v1.5',
  '@cf/baai/bge-m3',
  '@cf/openai/whisper',
  '@cf/stabilityai/stable-diffusion-xl-base-1.0',
];

/** Cloudflare Workers AI, with the account id in the channel's `other`. */
export const cloudflareVendor: VendorDescriptor = {
  isSupported: true,
  adapter: cloudflareAdapter,
  keyFormat: 'API token (account id in "other")',
  models,
  prices: {},
  unpriced: [
    {
      names: models,
      reason:
        'Workers AI bills in neurons per model (https://developers.cloudflare.com/workers-ai/platform/pricing/), ' +
        'not per token: an administrator sets the ratio in ModelRatio',
    },
  ],
};
