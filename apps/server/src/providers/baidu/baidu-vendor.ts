import { yuan, type ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { baiduAdapter } from './baidu-adapter';

const models: readonly string[] = [
  'ERNIE-4.5-Turbo-128K',
  'ERNIE-X1-Turbo-32K',
  'ERNIE-4.0-8K',
  'ERNIE-4.0-Turbo-8K',
  'ERNIE-3.5-8K',
  'ERNIE-3.5-128K',
  'ERNIE-Speed-8K',
  'ERNIE-Speed-128K',
  'ERNIE-Lite-8K',
  'ERNIE-Tiny-8K',
  'ERNIE-Character-8K',
  'Embedding-V1',
  'bge-large-zh',
  'bge-large-en',
  'tao-8k',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://cloud.baidu.com/doc/WENXINWORKSHOP/s/hlrk4akp7
  'ERNIE-4.0-8K': yuan(30, 90),
  'ERNIE-4.0-Turbo-8K': yuan(20, 60),
  'ERNIE-3.5-8K': yuan(0.8, 2),
  'ernie-4.5-turbo-128k': yuan(0.8, 3.2),
  'ERNIE-Speed-8K': yuan(0),
  'ERNIE-Speed-128K': yuan(0),
  'ERNIE-Lite-8K': yuan(0),
  'ERNIE-Tiny-8K': yuan(0),
  'Embedding-V1': yuan(0.5),
  'bge-large-zh': yuan(0.5),
  // The Qianfan names the console lists for the same model.
  'ERNIE-4.5-Turbo-128K': yuan(0.8, 3.2),
};

/**
 * Baidu Wenxin (Qianfan): its own API with an access token from API key + secret key.
 */
export const baiduVendor: VendorDescriptor = {
  isSupported: true,
  adapter: baiduAdapter,
  keyFormat: 'APIKey|SecretKey',
  models,
  prices,
  unpriced: [
    {
      names: ['ERNIE-X1-Turbo-32K', 'ERNIE-3.5-128K', 'ERNIE-Character-8K', 'bge-large-en', 'tao-8k'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
};
