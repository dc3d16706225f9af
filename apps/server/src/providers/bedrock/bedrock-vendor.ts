import { anthropicModels } from '../anthropic/anthropic-models';
import { same, usd } from '../model-prices';
import type { VendorDescriptor } from '../vendor-descriptor';
import { bedrockAdapter } from './bedrock-adapter';
import { BEDROCK_KEY_FORMAT } from './bedrock-key';

/** The embedding models served over InvokeModel, by their Bedrock model ids. */
const embeddingModels = [
  'amazon.titan-embed-text-v2:0',
  'amazon.titan-embed-text-v1',
  'cohere.embed-english-v3',
  'cohere.embed-multilingual-v3',
];

/**
 * AWS Bedrock (channel type "AWS") through the Converse API: Claude by its Anthropic names (priced in the
 * anthropic folder), mapped to Bedrock model ids by the adapter; embeddings by their Bedrock model ids, at
 * Bedrock's on-demand prices (https://aws.amazon.com/bedrock/pricing/: Titan Text Embeddings V2 $0.02, V1
 * $0.10, Cohere Embed $0.10 per million input tokens).
 */
export const bedrockVendor: VendorDescriptor = {
  isSupported: true,
  adapter: bedrockAdapter,
  keyFormat: BEDROCK_KEY_FORMAT,
  models: [...anthropicModels, ...embeddingModels],
  prices: {
    'amazon.titan-embed-text-v2:0': usd(0.02),
    ...same(usd(0.1), [
      'amazon.titan-embed-text-v1',
      'cohere.embed-english-v3',
      'cohere.embed-multilingual-v3',
    ]),
  },
};
