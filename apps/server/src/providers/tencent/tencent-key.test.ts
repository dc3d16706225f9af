import { describe, expect, it } from 'vitest';
import { parseTencentKey, validateTencentKey } from './tencent-key';

describe('the Tencent Hunyuan channel key', () => {
  it('reads AppId|SecretId|SecretKey', () => {
    expect(parseTencentKey(' 1250000000 | AKIDsecretid | secretkey ')).toEqual({
      appId: '1250000000',
      secretId: 'AKIDsecretid',
      secretKey: 'secretkey',
    });
  });

  it.each([
    ['AKIDsecretid|secretkey', 'it has 2 parts'],
    ['1|AKID|', 'a part is empty'],
    ['1|AKID x|key', 'a part contains spaces'],
  ])('refuses %j, naming the format and not the key', (key, problem) => {
    const message = validateTencentKey(key);
    expect(message).toContain('AppId|SecretId|SecretKey');
    expect(message).toContain(problem);
    expect(message).not.toContain(key);
    expect(() => parseTencentKey(key)).toThrow(problem);
  });
});
