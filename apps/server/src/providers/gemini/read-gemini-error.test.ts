import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGeminiError } from './read-gemini-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Google error objects → upstream error details', () => {
  it('reads an invalid key (400 INVALID_ARGUMENT, reason API_KEY_INVALID) as authentication', () => {
    expect(readGeminiError(fixture('error-api-key-invalid.json'), 400)).toEqual({
      message: 'API key not valid. Please pass a valid API key.',
      type: 'INVALID_ARGUMENT',
      code: 'API_KEY_INVALID',
      kind: 'authentication',
    });
  });

  it('reads quota exhaustion as rate_limit and an overloaded model as overloaded', () => {
    expect(readGeminiError(fixture('error-resource-exhausted.json'), 429)).toMatchObject({
      type: 'RESOURCE_EXHAUSTED',
      code: '429',
      kind: 'rate_limit',
    });
    expect(readGeminiError(fixture('error-unavailable.json'), 503)).toEqual({
      message: 'The model is overloaded. Please try again later.',
      type: 'UNAVAILABLE',
      code: '503',
      kind: 'overloaded',
    });
  });

  it('tells an input that is too long from other invalid requests', () => {
    expect(readGeminiError(fixture('error-input-too-long.json'), 400).kind).toBe('context_length');
    const invalid = {
      error: { code: 400, message: 'Invalid value at temperature', status: 'INVALID_ARGUMENT' },
    };
    expect(readGeminiError(Buffer.from(JSON.stringify(invalid)), 400).kind).toBe('invalid_request');
  });

  it.each([
    ['UNAUTHENTICATED', 401, 'authentication'],
    ['PERMISSION_DENIED', 403, 'permission'],
    ['FAILED_PRECONDITION', 400, 'permission'],
    ['NOT_FOUND', 404, 'not_found'],
    ['INTERNAL', 500, 'server'],
    ['DEADLINE_EXCEEDED', 504, 'server'],
    ['SOMETHING_NEW', 418, 'invalid_request'],
  ])('%s → %s', (status, code, kind) => {
    const body = Buffer.from(JSON.stringify({ error: { code, message: 'm', status } }));
    expect(readGeminiError(body, code).kind).toBe(kind);
  });

  it('reads the error inside the JSON array of a stream without alt=sse', () => {
    const body = Buffer.from(
      JSON.stringify([{ error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } }]),
    );
    expect(readGeminiError(body, 404)).toMatchObject({ message: 'models/x is not found', kind: 'not_found' });
  });

  it('reads a body that is not Google’s error object by its HTTP status', () => {
    expect(readGeminiError(fixture('error-html-bad-gateway.txt'), 502)).toEqual({
      message:
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
      type: '',
      code: '502',
      kind: 'server',
    });
    expect(readGeminiError(Buffer.alloc(0), 401)).toEqual({
      message: 'HTTP 401',
      type: '',
      code: '401',
      kind: 'authentication',
    });
    expect(readGeminiError(Buffer.from('{"message":"x"}'), 429).kind).toBe('rate_limit');
  });
});
