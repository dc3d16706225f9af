import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCohereError } from './read-cohere-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Cohere error answers', () => {
  it.each([
    ['error-invalid-token.json', 401, 'authentication', 'invalid api token'],
    ['error-billing.json', 402, 'insufficient_quota', 'Please add or update your payment method'],
    ['error-rate-limit.json', 429, 'rate_limit', 'You are past the per minute request limit'],
    ['error-trial-monthly.json', 429, 'insufficient_quota', 'You are using a Trial key'],
    ['error-too-many-tokens.json', 400, 'context_length', 'too many tokens'],
    ['error-model-not-found.json', 404, 'not_found', "model 'command-z' not found"],
  ])('%s (HTTP %i) is %s', (name, status, kind, message) => {
    const details = readCohereError(fixture(name), status);
    expect(details).toMatchObject({ kind, code: String(status) });
    expect(details.message.startsWith(message)).toBe(true);
  });

  it('reads 498 as a refused key and takes other kinds from the status when the body is not JSON', () => {
    expect(readCohereError(Buffer.from('{"message":"invalid token"}'), 498).kind).toBe('authentication');
    expect(readCohereError(Buffer.from('<html>502 Bad Gateway</html>'), 502)).toEqual({
      message: '<html>502 Bad Gateway</html>',
      type: '',
      code: '502',
      kind: 'server',
    });
    expect(readCohereError(Buffer.from(''), 503)).toMatchObject({
      message: 'Cohere answered HTTP 503',
      kind: 'overloaded',
    });
    expect(readCohereError(Buffer.from('x'.repeat(900)), 400).message).toHaveLength(500);
  });
});
