import type { TranslatorChannel } from '../../canonical/translation';
import type { GeminiEndpoint } from '../gemini/gemini-adapter';
import { readVertexLocation } from './vertex-key';

/** Who publishes a model on Vertex AI: Google's own (Gemini, embeddings) or a partner's (Claude). */
export type VertexPublisher = 'google' | 'anthropic';

export type VertexMethod =
  | 'generateContent'
  | 'streamGenerateContent'
  | 'rawPredict'
  | 'streamRawPredict'
  | 'predict'
  | 'embedContent'
  | 'batchEmbedContents'
  | 'countTokens';

/**
 * The API host of a location (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations): the
 * global endpoint has no region in its name, the us and eu multi-regions have their own hosts.
 */
export function vertexHost(region: string): string {
  if (region === 'global') return 'https://aiplatform.googleapis.com';
  if (region === 'us' || region === 'eu') return `https://aiplatform.${region}.rep.googleapis.com`;
  return `https://${region}-aiplatform.googleapis.com`;
}

/**
 * `{host}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`, on the
 * location's host, or on the channel's Base URL when it has one (a proxy, a private endpoint, the tests'
 * stand-in); a Base URL that already ends in an API version keeps it. Streams of generateContent ask for
 * server-sent events (`alt=sse`) rather than a JSON array.
 */
export function buildVertexUrl(
  channel: Pick<TranslatorChannel, 'baseUrl' | 'key'>,
  publisher: VertexPublisher,
  model: string,
  method: VertexMethod,
): string {
  const { region, projectId } = readVertexLocation(channel.key);
  const base = channel.baseUrl || vertexHost(region);
  const root = /\/v1(beta1)?$/.test(base) ? base : `${base}/v1`;
  const modelId = model.replace(/^(publishers\/[^/]+\/)?models\//, '');
  const query = method === 'streamGenerateContent' ? '?alt=sse' : '';
  return `${root}/projects/${projectId}/locations/${region}/publishers/${publisher}/models/${modelId}:${method}${query}`;
}

/** The access token the relay prepared from the service account (prepareCredential) as a bearer token. */
export function buildVertexHeaders(channel: Pick<TranslatorChannel, 'accessToken'>): Record<string, string> {
  if (!channel.accessToken) {
    throw new Error('Vertex AI requests need the access token of the channel, and none was prepared');
  }
  return { authorization: `Bearer ${channel.accessToken}`, 'content-type': 'application/json' };
}

/** Gemini on Vertex AI: the Gemini API's bodies, answers and streams at Vertex's URL, with the bearer token. */
export const vertexGeminiEndpoint: GeminiEndpoint = {
  buildUrl: (channel, upstreamModel, method) => buildVertexUrl(channel, 'google', upstreamModel, method),
  buildHeaders: buildVertexHeaders,
};
