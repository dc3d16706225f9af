import { same, usd, type ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { deepLAdapter } from './deepl-adapter';

// The target language is the suffix of the model name.
const models: readonly string[] = ['deepl-en', 'deepl-zh', 'deepl-ja', 'deepl-de', 'deepl-fr', 'deepl-es'];

const prices: Readonly<Record<string, ModelPrice>> = {
  // $25 per million characters, whatever the target language.
  ...same(usd(25), ['deepl-zh', 'deepl-en', 'deepl-ja', 'deepl-de', 'deepl-fr', 'deepl-es']),
};

/**
 * DeepL translates rather than chats: the model name carries the target language.
 */
export const deepLVendor: VendorDescriptor = {
  isSupported: true,
  adapter: deepLAdapter,
  keyFormat: 'API key',
  models,
  prices,
};
