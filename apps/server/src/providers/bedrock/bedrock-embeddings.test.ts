import { describe, expect, it } from 'vitest';
import { UnsupportedOptionError } from '../../canonical/translation';
import { bedrockEmbeddings, convertToBedrockEmbedBody } from './bedrock-embeddings';

const KEY = 'AKIDEXAMPLE|wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY|us-east-1';

function inputOf(body: Record<string, unknown>, upstreamModel: string, baseUrl = '') {
  return {
    channel: { baseUrl, key: KEY, other: '', config: {} },
    body,
    rawBody: Buffer.from(JSON.stringify(body)),
    upstreamModel,
    isModelMapped: false,
  } as never;
}

describe('Bedrock embeddings over InvokeModel', () => {
  it('writes the body of the model’s family', () => {
    expect(
      convertToBedrockEmbedBody(
        { model: 'm', input: 'hello', dimensions: 512 },
        'amazon.titan-embed-text-v2:0',
      ),
    ).toEqual({
      inputText: 'hello',
      dimensions: 512,
      normalize: true,
    });
    expect(convertToBedrockEmbedBody({ model: 'm', input: ['hello'] }, 'amazon.titan-embed-text-v1')).toEqual(
      {
        inputText: 'hello',
      },
    );
    expect(convertToBedrockEmbedBody({ model: 'm', input: ['a', 'b'] }, 'cohere.embed-english-v3')).toEqual({
      texts: ['a', 'b'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
  });

  it.each([
    [
      { model: 'm', input: ['a', 'b'] },
      'amazon.titan-embed-text-v2:0',
      'several inputs in one Titan embeddings request',
    ],
    [{ model: 'm', input: 'a', dimensions: 300 }, 'amazon.titan-embed-text-v2:0', 'dimensions 300'],
    [{ model: 'm', input: [1, 2] }, 'cohere.embed-english-v3', 'token arrays as embedding input'],
    [
      { model: 'm', input: 'a' },
      'anthropic.claude-3-haiku-20240307-v1:0',
      'embeddings with anthropic.claude',
    ],
  ])('refuses what the model cannot take, naming it (%#)', (request, modelId, words) => {
    const refuse = () => convertToBedrockEmbedBody(request as never, modelId);
    expect(refuse).toThrow(UnsupportedOptionError);
    expect(refuse).toThrow(`AWS Bedrock does not support ${words}`);
  });

  it('signs a call to /model/{id}/invoke with the model id as one encoded segment', async () => {
    const built = await bedrockEmbeddings.buildRequest(
      inputOf({ model: 'titan', input: 'hello' }, 'amazon.titan-embed-text-v2:0'),
    );
    expect(built.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-embed-text-v2%3A0/invoke',
    );
    expect(built.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\//,
    );
    expect(JSON.parse(String(built.body))).toEqual({ inputText: 'hello', normalize: true });
  });

  it('answers OpenAI’s list: Titan billed its inputTextTokenCount, Cohere counted by the relay', () => {
    const titan = bedrockEmbeddings.readResponse(
      Buffer.from(JSON.stringify({ embedding: [0.5, -0.25], inputTextTokenCount: 3 })),
      inputOf({ model: 'titan', input: 'a b c', encoding_format: 'float' }, 'amazon.titan-embed-text-v2:0'),
    );
    expect(titan.usage).toEqual({ promptTokens: 3, completionTokens: 0 });
    expect(titan.answer).toEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.25] }],
      model: 'titan',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const cohere = bedrockEmbeddings.readResponse(
      Buffer.from(JSON.stringify({ id: 'x', texts: ['a', 'b'], embeddings: { float: [[1], [2]] } })),
      inputOf({ model: 'embed', input: ['a', 'b'], encoding_format: 'base64' }, 'cohere.embed-english-v3'),
    );
    expect(cohere.usage).toBeNull();
    const data = (cohere.answer as { data: Array<{ embedding: string }> }).data;
    expect(data.map((item) => Buffer.from(item.embedding, 'base64').readFloatLE(0))).toEqual([1, 2]);
  });
});
