import { describe, expect, it } from 'vitest';
import { isSparkWebSocketKey, parseSparkKey, validateSparkKey } from './spark-key';

describe('Spark channel keys', () => {
  it('reads APPID|APISecret|APIKey, trimmed', () => {
    expect(parseSparkKey(' 12345 | secret | key ')).toEqual({
      appId: '12345',
      apiSecret: 'secret',
      apiKey: 'key',
    });
    expect(validateSparkKey('12345|secret|key')).toBeNull();
  });

  it('takes a key without "|" as the HTTP API password', () => {
    expect(isSparkWebSocketKey('AbCdEf:GhIjKl')).toBe(false);
    expect(validateSparkKey('AbCdEf:GhIjKl')).toBeNull();
  });

  it.each([
    ['12345|secret', 'it has 2 parts separated by "|"'],
    ['12345||key', 'a part is empty'],
    ['a|b|c|d', 'it has 4 parts'],
    ['', 'the key is empty'],
  ])('refuses %j, naming the expected form without echoing the key', (key, problem) => {
    const message = validateSparkKey(key);
    expect(message).toContain('APPID|APISecret|APIKey');
    expect(message).toContain(problem);
    if (key.includes('secret')) expect(message).not.toContain('secret|');
  });
});
