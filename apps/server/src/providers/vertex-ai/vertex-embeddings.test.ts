import { describe, expect, it } from 'vitest';
import { readVertexFixture } from '../../../test/support/vertex-stand-in';
import { UnsupportedOptionError, UpstreamFormatError } from '../../canonical/translation';
import type { JsonRequestInput } from '../provider-types';
import { convertToVertexEmbedRequest, vertexEmbeddings } from './vertex-embeddings';

const input = (body: Record<string, unknown>): JsonRequestInput => ({
  channel: { baseUrl: '', key: 'us-central1|acme-prod|{}', other: '', config: {}, accessToken: 'ya29.token' },
  body: { model: 'text-embedding-005', ...body },
  rawBody: Buffer.from(JSON.stringify(body)),
  upstreamModel: 'text-embedding-005',
  isModelMapped: false,
});

describe('embeddings on Vertex AI (:predict)', () => {
  it('sends one instance per input text, and dimensions as outputDimensionality', () => {
    const request = vertexEmbeddings.buildRequest(
      input({ input: ['first text', 'second'], dimensions: 256 }),
    );
    expect(request.url).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-central1/publishers/google/models/text-embedding-005:predict',
    );
    expect(request.headers.authorization).toBe('Bearer ya29.token');
    expect(JSON.parse(String(request.body))).toEqual({
      instances: [{ content: 'first text' }, { content: 'second' }],
      parameters: { outputDimensionality: 256 },
    });
    expect(convertToVertexEmbedRequest({ input: 'one text' })).toEqual({
      instances: [{ content: 'one text' }],
    });
  });

  it('refuses token arrays, which Vertex has no use for', () => {
    expect(() => vertexEmbeddings.buildRequest(input({ input: [[1, 2, 3]] }))).toThrow(
      UnsupportedOptionError,
    );
    expect(() => vertexEmbeddings.buildRequest(input({ input: [1, 2, 3] }))).toThrow('token arrays');
  });

  it("answers OpenAI's embeddings list, billed on Vertex's token counts", () => {
    const read = vertexEmbeddings.readResponse(
      readVertexFixture('predict-text-embedding.json'),
      input({ input: ['a', 'b'] }),
    );
    expect(read.usage).toEqual({ promptTokens: 10, completionTokens: 0 });
    expect(JSON.parse(read.body.toString('utf8'))).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.0128, -0.0442, 0.0071, 0.0315] },
        { object: 'embedding', index: 1, embedding: [-0.0219, 0.0063, 0.0497, -0.0108] },
      ],
      model: 'text-embedding-005',
      usage: { prompt_tokens: 10, total_tokens: 10 },
    });
  });

  it('gives base64 float32 vectors when asked', () => {
    const read = vertexEmbeddings.readResponse(
      readVertexFixture('predict-text-embedding.json'),
      input({ input: ['a', 'b'], encoding_format: 'base64' }),
    );
    const first = (read.answer as { data: Array<{ embedding: string }> }).data[0]!.embedding;
    const bytes = Buffer.from(first, 'base64');
    expect(bytes.length).toBe(16);
    expect(bytes.readFloatLE(4)).toBeCloseTo(-0.0442, 6);
  });

  it('leaves the count to the relay when Vertex gives none, and refuses an answer without vectors', () => {
    const uncounted = Buffer.from(JSON.stringify({ predictions: [{ embeddings: { values: [0.1] } }] }));
    expect(vertexEmbeddings.readResponse(uncounted).usage).toBeNull();
    expect(() => vertexEmbeddings.readResponse(Buffer.from('{"predictions": [{}]}'))).toThrow(
      UpstreamFormatError,
    );
    expect(() => vertexEmbeddings.readResponse(Buffer.from('{"predictions": [{"embe'))).toThrow(
      UpstreamFormatError,
    );
  });
});
