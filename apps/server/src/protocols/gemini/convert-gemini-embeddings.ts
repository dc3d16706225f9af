import type { EmbeddingRequest } from '../../canonical/chat';
import type { GeminiContentEmbedding } from '../../providers/gemini/gemini-wire-types';
import {
  invalidField,
  missingField,
  readList,
  readObject,
  readOptionalNumber,
  readString,
  type Json,
} from './gemini-request-fields';

/** The text of one content to embed: its text parts, in order. */
function readEmbedText(value: unknown, path: string): string {
  const content = readObject(value, path);
  const parts = readList(content.parts, `${path}.parts`);
  return parts
    .map((part, index) => {
      const at = `${path}.parts[${index}]`;
      const { text } = readObject(part, at);
      if (text === undefined) throw invalidField(at, part, 'a text part (only text is embedded here)');
      return readString(text, `${at}.text`);
    })
    .join('\n');
}

function readEmbedRequests(body: Json, isBatch: boolean): Json[] {
  if (!isBatch) return [body];
  if (body.requests === undefined) throw missingField('BatchEmbedContentsRequest', 'requests');
  const requests = readList(body.requests, 'requests');
  if (requests.length === 0) throw missingField('BatchEmbedContentsRequest', 'requests');
  return requests.map((request, index) => readObject(request, `requests[${index}]`));
}

/**
 * A Gemini embedding request as OpenAI's (https://platform.openai.com/docs/api-reference/embeddings), which
 * every channel that offers embeddings takes: embedContent (https://ai.google.dev/api/embeddings) is one
 * input, batchEmbedContents one per request, in order; outputDimensionality is `dimensions`, and must be the
 * same for the whole batch. taskType and title have no OpenAI form and are not sent. Floats are asked for:
 * Gemini clients read them.
 */
export function convertGeminiEmbedRequest(body: Json, model: string, isBatch: boolean): EmbeddingRequest {
  const requests = readEmbedRequests(body, isBatch);
  const prefix = (index: number) => (isBatch ? `requests[${index}].` : '');
  const texts = requests.map((request, index) => {
    if (request.content === undefined) throw missingField('EmbedContentRequest', `${prefix(index)}content`);
    return readEmbedText(request.content, `${prefix(index)}content`);
  });
  const dimensions = requests.map((request, index) =>
    readOptionalNumber(request.outputDimensionality, `${prefix(index)}outputDimensionality`, {
      minimum: 1,
      isInteger: true,
    }),
  );
  const mismatch = dimensions.findIndex((each) => each !== dimensions[0]);
  if (mismatch > 0)
    throw invalidField(
      `requests[${mismatch}].outputDimensionality`,
      dimensions[mismatch] ?? null,
      `the outputDimensionality of requests[0] (${dimensions[0] ?? 'none'}): a batch is embedded in one call`,
    );
  return {
    model,
    input: isBatch ? texts : texts[0],
    encoding_format: 'float',
    ...(dimensions[0] !== undefined ? { dimensions: dimensions[0] } : {}),
  };
}

/** OpenAI's base64 embedding (float32, little-endian) as numbers. */
function readValues(embedding: unknown): number[] {
  if (Array.isArray(embedding)) return embedding as number[];
  if (typeof embedding !== 'string') return [];
  const bytes = Buffer.from(embedding, 'base64');
  return Array.from({ length: Math.floor(bytes.length / 4) }, (_, index) => bytes.readFloatLE(index * 4));
}

/**
 * OpenAI's embeddings answer as embedContent's `{embedding}` or batchEmbedContents' `{embeddings}`, in the
 * order of the inputs. Null when it is not an embeddings answer.
 */
export function convertToGeminiEmbedResponse(
  answer: unknown,
  isBatch: boolean,
): { embedding: GeminiContentEmbedding } | { embeddings: GeminiContentEmbedding[] } | null {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const embeddings = [...(data as Array<{ index?: number; embedding?: unknown }>)]
    .sort((left, right) => (left.index ?? 0) - (right.index ?? 0))
    .map((entry) => ({ values: readValues(entry.embedding) }));
  if (!isBatch) return embeddings[0] ? { embedding: embeddings[0] } : null;
  return { embeddings };
}
