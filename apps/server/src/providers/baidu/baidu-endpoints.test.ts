import { describe, expect, it } from 'vitest';
import { findBaiduChatEndpoint, findBaiduEmbeddingEndpoint } from './baidu-endpoints';

describe('the ERNIE endpoints', () => {
  it.each([
    ['ERNIE-4.0-8K', 'completions_pro'],
    ['ernie-4.0-8k', 'completions_pro'],
    ['ERNIE-3.5-8K', 'completions'],
    ['ERNIE-Speed-8K', 'ernie_speed'],
    ['ERNIE-Speed-128K', 'ernie-speed-128k'],
    ['ERNIE-4.0-Turbo-8K', 'ernie-4.0-turbo-8k'],
    ['ERNIE-3.5-8K-0701', 'ernie-3.5-8k-0701'],
    ['ERNIE-Character-8K', 'ernie-char-8k'],
  ])('serves %s at chat/%s', (model, endpoint) => {
    expect(findBaiduChatEndpoint(model)).toBe(endpoint);
  });

  it.each([
    ['Embedding-V1', 'embedding-v1'],
    ['bge-large-zh', 'bge_large_zh'],
    ['tao-8k', 'tao_8k'],
  ])('serves the embeddings of %s at embeddings/%s', (model, endpoint) => {
    expect(findBaiduEmbeddingEndpoint(model)).toBe(endpoint);
  });
});
