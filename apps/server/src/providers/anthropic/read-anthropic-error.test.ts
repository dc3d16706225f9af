import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnthropicError } from './read-anthropic-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Anthropic error answers', () => {
  it.each([
    ['error-authentication.json', 401, 'authentication', 'authentication_error', 'invalid x-api-key'],
    ['error-permission.json', 403, 'permission', 'permission_error', 'Your API key does not have permission'],
    ['error-not-found.json', 404, 'not_found', 'not_found_error', 'model: claude-sonnet-9'],
    [
      'error-rate-limit.json',
      429,
      'rate_limit',
      'rate_limit_error',
      'This request would exceed the rate limit',
    ],
    ['error-overloaded.json', 529, 'overloaded', 'overloaded_error', 'Overloaded'],
    ['error-api.json', 500, 'server', 'api_error', 'Internal server error'],
    ['error-invalid-request.json', 400, 'invalid_request', 'invalid_request_error', 'messages.1.content.0'],
    ['error-prompt-too-long.json', 400, 'context_length', 'invalid_request_error', 'prompt is too long'],
    ['error-credit-balance.json', 400, 'insufficient_quota', 'invalid_request_error', 'Your credit balance'],
  ])('%s (HTTP %i) is %s', (name, status, kind, type, message) => {
    const details = readAnthropicError(fixture(name), status);
    expect(details).toMatchObject({ kind, type, code: type });
    expect(details.message.startsWith(message)).toBe(true);
  });

  it("reads a spend limit's 429 as an empty balance, not a rate limit to retry, with its error code", () => {
    expect(readAnthropicError(fixture('error-spend-limit.json'), 429)).toEqual({
      message: 'Your organization has reached its monthly spend limit for its usage tier.',
      type: 'rate_limit_error',
      code: 'enforced_spend_limit_reached',
      kind: 'insufficient_quota',
    });
  });

  it('takes the kind from the HTTP status when the body is not Anthropic JSON', () => {
    const html = readAnthropicError(fixture('error-html-bad-gateway.txt'), 502);
    expect(html).toMatchObject({ type: '', code: '', kind: 'server' });
    expect(html.message).toContain('502 Bad Gateway');
    expect(readAnthropicError(Buffer.from(''), 529)).toEqual({
      message: 'Anthropic answered HTTP 529',
      type: '',
      code: '',
      kind: 'overloaded',
    });
    expect(readAnthropicError(Buffer.from('{"message":"no"}'), 401).kind).toBe('authentication');
    expect(readAnthropicError(Buffer.from('x'.repeat(2000)), 400).message).toHaveLength(500);
  });
});
