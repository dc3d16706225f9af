import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bedrockAdapter, bedrockTranslator } from './bedrock-adapter';

const errorBody = (name: string) => {
  const { body } = JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as {
    body: unknown;
  };
  return Buffer.from(JSON.stringify(body));
};

describe('the Bedrock adapter', () => {
  it('translates every client (no client speaks Converse) and serves chat and embeddings', () => {
    expect(bedrockAdapter).toMatchObject({ protocol: 'bedrock-converse', wireFormat: 'bedrock-converse' });
    expect(bedrockAdapter.translator).toBe(bedrockTranslator);
    expect(bedrockAdapter.passThrough).toBeUndefined();
    expect(bedrockAdapter.embeddings).toBeDefined();
    expect(bedrockAdapter.images).toBeUndefined();
  });

  it('reads errors by status and message when the relay passes no headers', () => {
    expect(bedrockAdapter.readError(errorBody('error-throttling.json'), 429).kind).toBe('rate_limit');
    expect(bedrockAdapter.readError(errorBody('error-invalid-security-token.json'), 403)).toMatchObject({
      kind: 'permission',
      message: 'The security token included in the request is invalid.',
    });
    expect(bedrockAdapter.readError(errorBody('error-input-too-long.json'), 400).kind).toBe('context_length');
  });
});
