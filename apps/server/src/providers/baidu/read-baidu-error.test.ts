import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBaiduError } from './read-baidu-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Baidu’s errors as the kinds the relay acts on', () => {
  it.each([
    ['error-access-token-expired.json', 'authentication', '111'],
    ['error-access-token-invalid.json', 'authentication', '110'],
    ['error-qps-limit.json', 'rate_limit', '18'],
    ['error-daily-limit.json', 'rate_limit', '17'],
    ['error-rpm-limit.json', 'rate_limit', '336501'],
    ['error-invalid-argument.json', 'invalid_request', '336003'],
    ['error-message-too-long.json', 'context_length', '336007'],
  ])('%s reads as %s', (name, kind, code) => {
    const details = readBaiduError(fixture(name), 200);
    expect(details).toMatchObject({ kind, code, type: 'baidu_error' });
    expect(details.message).not.toBe('');
  });

  it('reads an unlisted request error by its range and v2’s OpenAI errors by their status', () => {
    expect(readBaiduError(Buffer.from('{"error_code":336999,"error_msg":"new check"}'), 200).kind).toBe(
      'invalid_request',
    );
    const v2 = Buffer.from(
      '{"error":{"code":"invalid_iam_token","message":"IAM Certification failed","type":"invalid_request_error"}}',
    );
    expect(readBaiduError(v2, 401)).toMatchObject({
      kind: 'authentication',
      message: 'IAM Certification failed',
    });
    expect(readBaiduError(Buffer.from('<html>502 Bad Gateway</html>'), 502).kind).toBe('server');
  });
});
