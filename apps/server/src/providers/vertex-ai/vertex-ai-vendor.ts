import type { VendorDescriptor } from '../vendor-descriptor';
import { vertexAdapter } from './vertex-adapter';
import { VERTEX_KEY_FORMAT } from './vertex-key';

/**
 * Vertex AI names: Gemini ids, and Claude by its Anthropic names (priced in the anthropic folder) which the
 * adapter maps to Vertex's `name@date` ids, so one model list and one price serve Anthropic and Vertex channels.
 */
const models: readonly string[] = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash-001',
  'gemini-2.0-flash-lite-001',
  'claude-3-5-haiku-20241022',
  'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-20250219',
  'claude-sonnet-4-20250514',
  'claude-opus-4-20250514',
  'claude-sonnet-4-5-20250929',
  'text-embedding-005',
];

/**
 * Vertex AI: Gemini and Anthropic models in the channel's region and project, signed in with a service
 * account (its JSON is the key; prepareCredential turns it into an OAuth access token).
 */
export const vertexAiVendor: VendorDescriptor = {
  isSupported: true,
  adapter: vertexAdapter,
  keyFormat: VERTEX_KEY_FORMAT,
  models,
  // The names without Vertex's suffixes are priced in the gemini and anthropic folders.
  prices: {},
  unpriced: [
    {
      names: ['gemini-2.0-flash-001', 'gemini-2.0-flash-lite-001', 'text-embedding-005'],
      reason:
        'Vertex AI prices vary by region and endpoint (https://cloud.google.com/vertex-ai/generative-ai/pricing): ' +
        'an administrator sets the ratio in ModelRatio',
    },
  ],
};
