import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTencentError } from './read-tencent-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Tencent Cloud’s errors as the kinds the relay acts on', () => {
  it.each([
    ['error-signature-failure.json', 'authentication'],
    ['error-secret-id-not-found.json', 'authentication'],
    ['error-request-limit.json', 'rate_limit'],
    ['error-engine-busy.json', 'rate_limit'],
    ['error-charge-exhausted.json', 'insufficient_quota'],
    ['error-invalid-parameter.json', 'invalid_request'],
    ['error-service-not-activated.json', 'permission'],
  ])('%s reads as %s', (name, kind) => {
    const details = readTencentError(fixture(name), 200);
    expect(details.kind).toBe(kind);
    expect(details.type).toBe('tencent_cloud_error');
    expect(details.message).not.toBe('');
  });

  it('reads a gateway’s page by its status', () => {
    expect(readTencentError(Buffer.from('<html>bad gateway</html>'), 502)).toMatchObject({ kind: 'server' });
    expect(
      readTencentError(Buffer.from('{"Response":{"Error":{"Code":"LimitExceeded.Qps"}}}'), 200).kind,
    ).toBe('rate_limit');
  });
});
