import { yuan, type ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { tencentAdapter } from './tencent-adapter';

const models: readonly string[] = [
  'hunyuan-lite',
  'hunyuan-standard',
  'hunyuan-standard-256K',
  'hunyuan-pro',
  'hunyuan-turbo',
  'hunyuan-turbos-latest',
  'hunyuan-large',
  'hunyuan-t1-latest',
  'hunyuan-vision',
  'hunyuan-code',
  'hunyuan-role',
  'hunyuan-embedding',
];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://cloud.tencent.com/document/product/1729/97731
  'hunyuan-lite': yuan(0),
  'hunyuan-standard': yuan(0.8, 2),
  'hunyuan-standard-256K': yuan(15, 60),
  'hunyuan-pro': yuan(30, 100),
  'hunyuan-turbo': yuan(15, 50),
  'hunyuan-large': yuan(4, 12),
  'hunyuan-turbos-latest': yuan(0.8, 2),
  'hunyuan-vision': yuan(18),
  'hunyuan-embedding': yuan(0.7),
};

/**
 * Tencent Hunyuan: its own API signed with TC3-HMAC-SHA256.
 */
export const tencentVendor: VendorDescriptor = {
  isSupported: true,
  adapter: tencentAdapter,
  keyFormat: 'AppId|SecretId|SecretKey',
  models,
  prices,
  unpriced: [
    {
      names: ['hunyuan-t1-latest', 'hunyuan-code', 'hunyuan-role'],
      reason: 'no list price has been checked for it yet: an administrator sets its ratio in ModelRatio',
    },
  ],
};
