import { openAIModels } from '../openai/openai-models';
import type { VendorDescriptor } from '../vendor-descriptor';
import { azureAdapter } from './azure-adapter';

/** Azure OpenAI: OpenAI's models (priced in the openai folder) behind the resource's deployments. */
export const azureVendor: VendorDescriptor = {
  isSupported: true,
  adapter: azureAdapter,
  keyFormat: 'API key of the Azure OpenAI resource',
  models: openAIModels,
  prices: {},
};
