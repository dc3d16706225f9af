import { createOpenAICompatibleAdapter } from '../openai-compatible/openai-compatible-adapter';

/**
 * Cloudflare Workers AI's OpenAI-compatible endpoints live under the account, whose id the channel keeps in
 * `other` (https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/). Only chat,
 * completions and embeddings are offered there.
 */
export const cloudflareAdapter = createOpenAICompatibleAdapter({
  wireFormat: 'cloudflare-workers-ai',
  buildUrl: (channel, path) =>
    `${channel.baseUrl}/client/v4/accounts/${encodeURIComponent(channel.other.trim())}/ai/v1${path}`,
  buildHeaders: (channel) => ({ authorization: `Bearer ${channel.key}` }),
  supportsStreamUsage: () => true,
  omit: ['moderations', 'images', 'audioSpeech', 'audioTranscriptions', 'audioTranslations'],
});
