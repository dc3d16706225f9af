import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnsupportedOptionError, UpstreamFormatError } from '../../canonical/translation';
import { convertGeminiEmbedResponse, convertToGeminiEmbedRequest } from './convert-gemini-embeddings';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('embeddings', () => {
  it('asks batchEmbedContents for one embedding per input, with the dimensions', () => {
    expect(
      convertToGeminiEmbedRequest(
        { model: 'text-embedding-3-small', input: ['first', 'second'], dimensions: 768 },
        'gemini-embedding-001',
      ),
    ).toEqual({
      requests: [
        {
          model: 'models/gemini-embedding-001',
          content: { parts: [{ text: 'first' }] },
          outputDimensionality: 768,
        },
        {
          model: 'models/gemini-embedding-001',
          content: { parts: [{ text: 'second' }] },
          outputDimensionality: 768,
        },
      ],
    });
    expect(convertToGeminiEmbedRequest({ model: 'm', input: 'one' }, 'models/text-embedding-004')).toEqual({
      requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'one' }] } }],
    });
  });

  it('refuses token arrays', () => {
    expect(() =>
      convertToGeminiEmbedRequest({ model: 'm', input: [1, 2, 3] }, 'gemini-embedding-001'),
    ).toThrow(UnsupportedOptionError);
  });

  it('answers in OpenAI’s shape; no usage from the Gemini API, so the relay counts', () => {
    const { response, usage } = convertGeminiEmbedResponse(fixture('batch-embed-contents.json'), {
      model: 'text-embedding-3-small',
    });
    expect(response).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.0149, -0.0213, 0.0027, -0.0612] },
        { object: 'embedding', index: 1, embedding: [-0.0105, 0.0333, -0.0144, 0.0271] },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
    expect(usage).toBeNull();
  });

  it('encodes base64 as OpenAI does (float32 little-endian) and reads counts when the upstream gives them', () => {
    const body = Buffer.from(
      JSON.stringify({
        embeddings: [
          { values: [1, -0.5], statistics: { tokenCount: 3 } },
          { values: [0.25], statistics: { tokenCount: 4 } },
        ],
      }),
    );
    const { response, usage } = convertGeminiEmbedResponse(body, { model: 'm', encodingFormat: 'base64' });
    const decoded = Buffer.from(response.data[0].embedding as string, 'base64');
    expect([decoded.readFloatLE(0), decoded.readFloatLE(4)]).toEqual([1, -0.5]);
    expect(usage).toEqual({ promptTokens: 7, completionTokens: 0 });
    expect(response.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
    const withMetadata = Buffer.from(
      JSON.stringify({ embeddings: [{ values: [1] }], usageMetadata: { promptTokenCount: 5 } }),
    );
    expect(convertGeminiEmbedResponse(withMetadata, { model: 'm' }).usage).toEqual({
      promptTokens: 5,
      completionTokens: 0,
    });
  });

  it('refuses an answer without embeddings', () => {
    expect(() =>
      convertGeminiEmbedResponse(Buffer.from('{"embedding":{"values":[1]}}'), { model: 'm' }),
    ).toThrow(UpstreamFormatError);
  });
});
