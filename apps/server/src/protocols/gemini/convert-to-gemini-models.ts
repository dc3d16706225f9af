import type { GeminiListModelsResponse, GeminiModel } from '../../providers/gemini/gemini-wire-types';

const CHAT_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];
const EMBEDDING_METHODS = ['embedContent', 'batchEmbedContents'];

/**
 * One model a key can call, as the Gemini API lists its models (https://ai.google.dev/api/models#Model).
 * The gateway knows names, not limits: the methods are told apart by the name, as embedding models are named.
 */
export function convertToGeminiModel(id: string): GeminiModel {
  return {
    name: `models/${id}`,
    baseModelId: id,
    displayName: id,
    supportedGenerationMethods: /embed/i.test(id) ? EMBEDDING_METHODS : CHAT_METHODS,
  };
}

const DEFAULT_PAGE_SIZE = 50;
const MAXIMUM_PAGE_SIZE = 1000;

function readPageSize(value: unknown): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size <= 0) return DEFAULT_PAGE_SIZE;
  return Math.min(size, MAXIMUM_PAGE_SIZE);
}

/** The position a page token stands for; the token is the position itself, in base64url. */
function readPageToken(value: unknown): number {
  if (typeof value !== 'string' || value === '') return 0;
  const position = Number(Buffer.from(value, 'base64url').toString('utf8'));
  return Number.isInteger(position) && position > 0 ? position : 0;
}

/**
 * One page of `GET /v1beta/models` (https://ai.google.dev/api/models#method:-models.list): pageSize models
 * (50 unless asked, at most 1000) from the one pageToken points at, with the token of the next page.
 */
export function listGeminiModels(
  ids: readonly string[],
  query: { pageSize?: unknown; pageToken?: unknown },
): GeminiListModelsResponse {
  const start = readPageToken(query.pageToken);
  const end = start + readPageSize(query.pageSize);
  const models = ids.slice(start, end).map(convertToGeminiModel);
  return end < ids.length
    ? { models, nextPageToken: Buffer.from(String(end)).toString('base64url') }
    : { models };
}
