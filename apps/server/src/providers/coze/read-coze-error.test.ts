import { describe, expect, it } from 'vitest';
import { mapCozeErrorCode } from './map-coze-error-code';
import { readCozeError } from './read-coze-error';

describe('Coze errors', () => {
  it.each([
    [4100, 'authentication is invalid', 'authentication'],
    [700012006, 'access token invalid', 'authentication'],
    [4101, 'The token you entered does not have permission', 'permission'],
    [4200, 'bot not exist', 'not_found'],
    [4015, 'The bot has not been published to the channel Agent As API', 'not_found'],
    [4013, 'The request rate exceeds the limit', 'rate_limit'],
    [4000, 'The request parameters are incorrect', 'invalid_request'],
    [4028, 'Your account has insufficient balance', 'insufficient_quota'],
    [4999, 'something new', 'unknown'],
  ])('code %i (%s) is %s', (code, message, kind) => {
    expect(mapCozeErrorCode(code, message)).toBe(kind);
  });

  it("reads Coze's {code, msg} body of a non-2xx answer, else the status", () => {
    expect(readCozeError(Buffer.from('{"code":4100,"msg":"authentication is invalid"}'), 401)).toEqual({
      message: 'authentication is invalid',
      type: 'coze_error',
      code: '4100',
      kind: 'authentication',
    });
    expect(readCozeError(Buffer.from('{"code":4999,"msg":"new"}'), 500).kind).toBe('server');
    expect(readCozeError(Buffer.from('<html>Bad Gateway</html>'), 502)).toMatchObject({
      kind: 'server',
      code: '',
    });
    expect(readCozeError(Buffer.from(''), 429).message).toBe('Coze answered HTTP 429');
  });
});
