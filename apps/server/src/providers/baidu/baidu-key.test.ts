import { describe, expect, it } from 'vitest';
import { parseBaiduKey, validateBaiduKey } from './baidu-key';

describe('the Baidu channel key', () => {
  it('reads APIKey|SecretKey as the v1 API and one key as the v2 API', () => {
    expect(parseBaiduKey(' ak-123 | sk-456 ')).toEqual({
      version: 'v1',
      apiKey: 'ak-123',
      secretKey: 'sk-456',
    });
    expect(parseBaiduKey('bce-v3/ALTAK-abc/def')).toEqual({ version: 'v2', apiKey: 'bce-v3/ALTAK-abc/def' });
  });

  it.each([
    ['ak|sk|extra', 'it has 3 parts'],
    ['ak|', 'a part is empty'],
    ['', 'a part is empty'],
    ['ak x|sk', 'a part contains spaces'],
  ])('refuses %j, naming the format and not the key', (key, problem) => {
    const message = validateBaiduKey(key);
    expect(message).toContain('APIKey|SecretKey');
    expect(message).toContain(problem);
    expect(() => parseBaiduKey(key)).toThrow(problem);
    if (key.length > 3) expect(message).not.toContain(key);
  });
});
