import { anthropicModels } from '../anthropic/anthropic-models';
import type { VendorDescriptor } from '../vendor-descriptor';
import { bedrockAdapter } from './bedrock-adapter';
import { BEDROCK_KEY_FORMAT } from './bedrock-key';

/**
 * AWS Bedrock (channel type "AWS") through the Converse API: Claude by its Anthropic names (priced in the
 * anthropic folder), mapped to Bedrock model ids by the adapter.
 */
export const bedrockVendor: VendorDescriptor = {
  isSupported: true,
  adapter: bedrockAdapter,
  keyFormat: BEDROCK_KEY_FORMAT,
  models: anthropicModels,
  prices: {},
};
