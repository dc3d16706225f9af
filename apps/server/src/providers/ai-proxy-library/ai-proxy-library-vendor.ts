import type { ModelPrice } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { AI_PROXY_LIBRARY_UNAVAILABLE_REASON } from './validate-ai-proxy-library-channel';

const models: readonly string[] = ['gpt-3.5-turbo', 'gpt-4', 'gpt-4o', 'gpt-4o-mini'];

const prices: Readonly<Record<string, ModelPrice>> = {};

/**
 * AI Proxy's knowledge-base API, which has no published reference to build an adapter from: new channels are
 * refused when saved, and a stored one answers why. Its models are OpenAI's, priced there.
 */
export const aiProxyLibraryVendor: VendorDescriptor = {
  isSupported: false,
  reason: AI_PROXY_LIBRARY_UNAVAILABLE_REASON,
  keyFormat: 'API key',
  models,
  prices,
};
