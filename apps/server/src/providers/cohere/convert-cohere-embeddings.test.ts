import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnsupportedOptionError, UpstreamFormatError } from '../../canonical/translation';
import { convertCohereEmbedResponse, convertToCohereEmbedRequest } from './convert-cohere-embeddings';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('OpenAI embeddings ↔ Cohere v2 embed', () => {
  it('embeds texts as documents to store, in floats, unless the client names another Cohere input type', () => {
    expect(
      convertToCohereEmbedRequest({ model: 'embed', input: ['hello', 'goodbye'] }, 'embed-v4.0'),
    ).toEqual({
      model: 'embed-v4.0',
      texts: ['hello', 'goodbye'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
    expect(
      convertToCohereEmbedRequest(
        { model: 'embed', input: 'hi', input_type: 'search_query', dimensions: 256 },
        'embed-v4.0',
      ),
    ).toMatchObject({ texts: ['hi'], input_type: 'search_query', output_dimension: 256 });
    expect(
      convertToCohereEmbedRequest({ model: 'e', input: 'hi', input_type: 'nonsense' }, 'e').input_type,
    ).toBe('search_document');
    expect(() => convertToCohereEmbedRequest({ model: 'e', input: [1, 2, 3] }, 'e')).toThrow(
      UnsupportedOptionError,
    );
  });

  it("answers OpenAI's shape with the client's model name and the billed input tokens", () => {
    const { response, usage } = convertCohereEmbedResponse(fixture('embed-floats.json'), {
      model: 'my-embed',
    });
    expect(response).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.016296387, -0.008354187, -0.04699707, 0.125] },
        { object: 'embedding', index: 1, embedding: [-0.5, 0.25, 0.0078125, 1] },
      ],
      model: 'my-embed',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 0 });
  });

  it('encodes base64 as OpenAI does (little-endian float32), which the SDKs decode back', () => {
    const { response } = convertCohereEmbedResponse(fixture('embed-floats.json'), {
      model: 'm',
      encodingFormat: 'base64',
    });
    const bytes = Buffer.from(response.data[1].embedding as string, 'base64');
    const floats = Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
    expect(floats).toEqual([-0.5, 0.25, 0.0078125, 1]);
  });

  it('refuses an answer without float embeddings', () => {
    expect(() => convertCohereEmbedResponse(Buffer.from('{"embeddings":{}}'), { model: 'm' })).toThrow(
      UpstreamFormatError,
    );
    expect(() => convertCohereEmbedResponse(Buffer.from('nope'), { model: 'm' })).toThrow(
      UpstreamFormatError,
    );
  });
});
