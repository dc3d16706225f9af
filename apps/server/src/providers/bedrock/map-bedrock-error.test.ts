import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeBedrockErrorType, readBedrockError } from './map-bedrock-error';

interface ErrorFixture {
  status: number;
  'x-amzn-errortype': string;
  body: unknown;
}

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as ErrorFixture;

const read = (name: string, withHeader = true) => {
  const { status, body, 'x-amzn-errortype': header } = fixture(name);
  return readBedrockError(Buffer.from(JSON.stringify(body)), status, withHeader ? header : '');
};

describe('Bedrock error answers', () => {
  it.each([
    ['error-access-denied.json', 'AccessDeniedException', 'permission'],
    ['error-invalid-security-token.json', 'UnrecognizedClientException', 'authentication'],
    ['error-throttling.json', 'ThrottlingException', 'rate_limit'],
    ['error-model-not-ready.json', 'ModelNotReadyException', 'overloaded'],
    ['error-input-too-long.json', 'ValidationException', 'context_length'],
    ['error-unknown-model-id.json', 'ValidationException', 'invalid_request'],
  ])('%s → %s, %s', (name, type, kind) => {
    const details = read(name);
    expect(details).toMatchObject({ type, code: type, kind });
    expect(details.message).toBe((fixture(name).body as { message: string }).message);
  });

  it('falls back to the body __type, then to the status, when the header is not passed', () => {
    expect(
      readBedrockError(
        Buffer.from(
          '{"__type":"com.amazon.coral.service#UnrecognizedClientException","Message":"bad token"}',
        ),
        403,
      ),
    ).toEqual({
      message: 'bad token',
      type: 'UnrecognizedClientException',
      code: 'UnrecognizedClientException',
      kind: 'authentication',
    });
    expect(read('error-throttling.json', false)).toMatchObject({ kind: 'rate_limit' });
    expect(read('error-access-denied.json', false)).toMatchObject({ kind: 'permission' });
  });

  it("reads Bedrock's own statuses without a name: 424 model error and 408 model timeout are the server's", () => {
    const body = Buffer.from('{"message":"Model returned an error."}');
    expect(readBedrockError(body, 424).kind).toBe('server');
    expect(readBedrockError(body, 408).kind).toBe('server');
    expect(readBedrockError(body, 400).kind).toBe('invalid_request');
  });

  it('keeps a proxy page as the message', () => {
    expect(readBedrockError(Buffer.from('<html>Bad Gateway</html>'), 502)).toMatchObject({
      message: '<html>Bad Gateway</html>',
      kind: 'server',
    });
    expect(readBedrockError(Buffer.alloc(0), 503)).toMatchObject({
      message: 'AWS Bedrock answered HTTP 503',
      kind: 'overloaded',
    });
  });

  it('reads every spelling of an exception name', () => {
    expect(
      normalizeBedrockErrorType('ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/'),
    ).toBe('ValidationException');
    expect(normalizeBedrockErrorType('com.amazon.coral.service#ExpiredTokenException')).toBe(
      'ExpiredTokenException',
    );
    expect(normalizeBedrockErrorType('modelStreamErrorException')).toBe('ModelStreamErrorException');
  });
});
