import { DEFAULT_AZURE_API_VERSION } from '@gatehouse/shared';
import type { ChannelCredentials } from '../provider-types';
import { createOpenAICompatibleAdapter } from '../openai-compatible/openai-compatible-adapter';

/** The channel's `other` holds the API version; blank means the console's default. */
export function azureApiVersion(channel: ChannelCredentials): string {
  return channel.other.trim() || DEFAULT_AZURE_API_VERSION;
}

/**
 * The deployment is the (mapped) model name. Azure names the GPT-3.5 models without the dot
 * (gpt-35-turbo: https://learn.microsoft.com/azure/ai-services/openai/concepts/models), so an unmapped
 * gpt-3.5 name is spelled that way; any other deployment name is set with the channel's model mapping.
 */
export function azureDeployment(upstreamModel: string): string {
  return upstreamModel.replace(/^gpt-3\.5/, 'gpt-35');
}

/** stream_options arrived with the 2024-09-01-preview API version; older versions refuse the field. */
function supportsStreamUsage(channel: ChannelCredentials): boolean {
  return azureApiVersion(channel).slice(0, 10) >= '2024-09-01';
}

/**
 * Azure OpenAI: the OpenAI wire format at deployment URLs with an `api-key` header
 * (https://learn.microsoft.com/azure/ai-services/openai/reference). Azure has no moderation endpoint.
 */
export const azureAdapter = createOpenAICompatibleAdapter({
  wireFormat: 'azure-openai',
  buildUrl: (channel, path, upstreamModel) =>
    `${channel.baseUrl}/openai/deployments/${encodeURIComponent(azureDeployment(upstreamModel))}${path}` +
    `?api-version=${encodeURIComponent(azureApiVersion(channel))}`,
  buildHeaders: (channel) => ({ 'api-key': channel.key }),
  supportsStreamUsage,
  omit: ['moderations'],
});
