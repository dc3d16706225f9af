import { same, yuan, type ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { xunfeiAdapter } from './xunfei-adapter';

// Spark's HTTP API names (lite … 4.0Ultra); the form's version field covers the older WebSocket domains.
const models: readonly string[] = ['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra'];

const prices: Readonly<Record<string, ModelPrice>> = {
  // https://xinghuo.xfyun.cn/sparkapi
  ...same(yuan(18), [
    'SparkDesk',
    'SparkDesk-v1.1',
    'SparkDesk-v2.1',
    'SparkDesk-v3.1',
    'SparkDesk-v3.5',
    'SparkDesk-v4.0',
  ]),
};

/**
 * iFlytek Spark: a WebSocket API with an HMAC-signed URL (the transport seam of provider-types.ts).
 */
export const xunfeiVendor: VendorDescriptor = {
  isSupported: true,
  adapter: xunfeiAdapter,
  keyFormat: 'APPID|APISecret|APIKey',
  models,
  prices,
  unpriced: [
    {
      names: ['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra'],
      reason:
        "Spark's HTTP model names; iFlytek sells them in token packages rather than at one list price, so an administrator sets the ratio in ModelRatio",
    },
  ],
};
