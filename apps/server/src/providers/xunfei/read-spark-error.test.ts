import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertSparkUsage } from './convert-spark-usage';
import { mapSparkErrorCode, statusOfSparkErrorCode } from './map-spark-error-code';
import { readSparkError } from './read-spark-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Spark errors', () => {
  it.each([
    [11200, 'authentication', 401],
    [10015, 'permission', 403],
    [11201, 'rate_limit', 429],
    [11202, 'rate_limit', 429],
    [11203, 'rate_limit', 429],
    [10013, 'invalid_request', 400],
    [10907, 'context_length', 400],
    [10110, 'overloaded', 503],
    [10012, 'server', 502],
    [12345, 'unknown', 502],
  ])('code %i is %s, answered as HTTP %i when it comes first', (code, kind, status) => {
    expect(mapSparkErrorCode(code)).toBe(kind);
    expect(statusOfSparkErrorCode(code)).toBe(status);
  });

  it('reads an error frame by its code, a refused handshake by its status, and HTTP API errors', () => {
    expect(readSparkError(fixture('frame-error-no-licence.ndjson'), 401)).toEqual({
      message: 'AppIdNoAuthError:(11200)auth no license (sid cht000b6e4b@dx18c3b8f7ee5b894542)',
      type: 'spark_error',
      code: '11200',
      kind: 'authentication',
    });
    expect(readSparkError(fixture('frame-error-too-long.ndjson'), 400).kind).toBe('context_length');
    expect(readSparkError(fixture('handshake-refused-signature.json'), 401)).toMatchObject({
      message: 'HMAC signature cannot be verified',
      kind: 'authentication',
    });
    expect(
      readSparkError(
        Buffer.from('{"error":{"message":"invalid user","type":"api_error","param":null,"code":null}}'),
        401,
      ),
    ).toMatchObject({ message: 'invalid user', kind: 'authentication' });
    expect(
      readSparkError(Buffer.from('{"error":{"message":"too long","type":"api_error","code":"10907"}}'), 400)
        .kind,
    ).toBe('context_length');
  });

  it('bills prompt_tokens (the whole input), not question_tokens', () => {
    expect(
      convertSparkUsage({ question_tokens: 4, prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 }),
    ).toEqual({
      promptTokens: 5,
      completionTokens: 9,
    });
    expect(convertSparkUsage({ total_tokens: 14, completion_tokens: 9 })).toEqual({
      promptTokens: 5,
      completionTokens: 9,
    });
    expect(convertSparkUsage({})).toBeNull();
    expect(convertSparkUsage(undefined)).toBeNull();
  });
});
