import type { ToolCallIdRule } from '../shared/fit-tool-call-id';
import type { VendorDescriptor } from '../vendor-descriptor';
import {
  createOpenAICompatibleAdapter,
  openAIEndpointsBeyondChat,
  prefixedLayout,
  type OpenAIEndpoint,
} from './openai-compatible-adapter';

export interface OpenAICompatibleVendorOptions {
  /** the wire format's name, for messages and docs */
  wireFormat: string;
  /** the path below the channel's base URL where the OpenAI-style API starts: '/v1', '/api/paas/v4' … */
  prefix: string;
  /** the endpoints beyond chat it offers; the relay answers that the others are not offered */
  offers: OpenAIEndpoint[] | 'all';
  keyFormat?: string;
  models: readonly string[];
  prices: VendorDescriptor['prices'];
  unpriced?: VendorDescriptor['unpriced'];
  /** the tool call ids it takes back, when stricter than OpenAI's */
  toolCallIds?: ToolCallIdRule;
}

/**
 * A vendor that speaks the OpenAI format at `{base URL}{prefix}/chat/completions` with a bearer key: most
 * vendors are this and nothing more.
 */
export function openAICompatibleVendor(options: OpenAICompatibleVendorOptions): VendorDescriptor {
  const { offers } = options;
  const omit =
    offers === 'all' ? [] : openAIEndpointsBeyondChat.filter((endpoint) => !offers.includes(endpoint));
  return {
    isSupported: true,
    adapter: createOpenAICompatibleAdapter({
      ...prefixedLayout(options.wireFormat, options.prefix),
      omit,
      toolCallIds: options.toolCallIds,
    }),
    keyFormat: options.keyFormat ?? 'API key',
    models: options.models,
    prices: options.prices,
    unpriced: options.unpriced,
  };
}
