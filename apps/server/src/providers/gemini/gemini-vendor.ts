import type { VendorDescriptor } from '../vendor-descriptor';
import { geminiAdapter } from './gemini-adapter';
import { geminiModels, geminiPrices } from './gemini-models';

/**
 * Google Gemini through the Gemini API's own generateContent: Gemini clients pass through, every other client
 * is translated (gemini-adapter.ts).
 */
export const geminiVendor: VendorDescriptor = {
  isSupported: true,
  adapter: geminiAdapter,
  keyFormat: 'API key',
  models: geminiModels,
  prices: geminiPrices,
};
