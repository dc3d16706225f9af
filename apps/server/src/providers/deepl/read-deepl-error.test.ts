import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDeepLError } from './read-deepl-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('DeepL error answers', () => {
  it.each([
    ['error-quota-exceeded.json', 456, 'insufficient_quota', 'Quota Exceeded'],
    ['error-wrong-endpoint.json', 403, 'authentication', 'Wrong endpoint. Use https://api.deepl.com'],
    ['error-too-many-requests.json', 429, 'rate_limit', 'Too many requests'],
    ['error-too-many-requests.json', 529, 'rate_limit', 'Too many requests'],
    ['error-target-lang.json', 400, 'invalid_request', "Value for 'target_lang' not supported."],
  ])('%s (HTTP %i) is %s', (name, status, kind, message) => {
    const details = readDeepLError(fixture(name), status);
    expect(details).toMatchObject({ kind, code: String(status) });
    expect(details.message.startsWith(message)).toBe(true);
  });

  it('reads an empty 403 (a refused key) by its status', () => {
    expect(readDeepLError(Buffer.from(''), 403)).toEqual({
      message: 'DeepL answered HTTP 403',
      type: '',
      code: '403',
      kind: 'authentication',
    });
    expect(
      readDeepLError(Buffer.from('{"message":"Bad request","detail":"Parameter text not specified."}'), 400)
        .message,
    ).toBe('Bad request: Parameter text not specified.');
  });
});
