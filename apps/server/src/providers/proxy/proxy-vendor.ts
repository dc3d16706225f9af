import type { VendorDescriptor } from '../vendor-descriptor';

/** Proxy channels forward raw requests elsewhere and have no model list. */
export const proxyVendor: VendorDescriptor = {
  isSupported: false,
  reason: 'Proxy channels forward raw requests and are not served by the /v1 endpoints',
  keyFormat: 'API key',
  models: [],
  prices: {},
};
