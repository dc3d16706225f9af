import type { TranslatorChannel } from '../../canonical/translation';

export type GeminiMethod =
  'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents' | 'countTokens';

const API_VERSION = /^v\d+(alpha|beta)?$/;

/**
 * `{base}/v1beta/models/{model}:{method}` of the Gemini API (https://ai.google.dev/api). A channel may name
 * another API version in "other" (v1, v1alpha); a base URL that already ends in a version is used as it is.
 * Streams ask for server-sent events (`alt=sse`) rather than the default JSON array. The key is never put in
 * the URL (`?key=`), where logs and error messages could show it.
 */
export function buildGeminiUrl(
  channel: Pick<TranslatorChannel, 'baseUrl' | 'other'>,
  model: string,
  method: GeminiMethod,
): string {
  const version = API_VERSION.test(channel.other.trim()) ? channel.other.trim() : 'v1beta';
  const base = /\/v\d+(alpha|beta)?$/.test(channel.baseUrl)
    ? channel.baseUrl
    : `${channel.baseUrl}/${version}`;
  const resource = /^(models|tunedModels)\//.test(model) ? model : `models/${model}`;
  return `${base}/${resource}:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`;
}

/** The Gemini API key header (https://ai.google.dev/gemini-api/docs/api-key). */
export function buildGeminiHeaders(key: string): Record<string, string> {
  return { 'x-goog-api-key': key, 'content-type': 'application/json' };
}

/**
 * Where Gemini bodies are sent and how to sign in: the only things the Gemini API and Vertex AI
 * (`{region}-aiplatform.googleapis.com/v1/projects/{p}/locations/{r}/publishers/google/models/{m}:…` with a
 * bearer token) do differently. Bodies, answers and streams are the same.
 */
export interface GeminiEndpoint {
  buildUrl(channel: TranslatorChannel, upstreamModel: string, method: GeminiMethod): string;
  buildHeaders(channel: TranslatorChannel): Record<string, string>;
}

/** The Gemini API (generativelanguage.googleapis.com) with the channel's API key. */
export const geminiApiEndpoint: GeminiEndpoint = {
  buildUrl: buildGeminiUrl,
  buildHeaders: (channel) => buildGeminiHeaders(channel.key),
};
