import { describe, expect, it } from 'vitest';
import { signTc3 } from './tencent-tc3-signature';

/**
 * The worked example of Tencent's "Signature v3" page: DescribeInstances of CVM in ap-guangzhou at
 * 1551113065 with the documentation's example key.
 */
const documentedExample = {
  secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
  secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
  service: 'cvm',
  host: 'cvm.tencentcloudapi.com',
  contentType: 'application/json; charset=utf-8',
  payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  timestamp: 1551113065,
};

describe('TC3-HMAC-SHA256', () => {
  it('gives every value of Tencent’s documented example', () => {
    const signed = signTc3(documentedExample);
    expect(signed.hashedPayload).toBe('35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064');
    expect(signed.hashedCanonicalRequest).toBe(
      '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(signed.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, ' +
        'Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('dates the scope in UTC, not the local time zone (00:44 in Beijing is still the 25th)', () => {
    expect(signTc3(documentedExample).authorization).toContain('/2019-02-25/');
  });

  it('changes with the body, the key and the time', () => {
    const base = signTc3(documentedExample).signature;
    expect(signTc3({ ...documentedExample, payload: '{}' }).signature).not.toBe(base);
    expect(signTc3({ ...documentedExample, secretKey: 'other' }).signature).not.toBe(base);
    expect(signTc3({ ...documentedExample, timestamp: 1551113066 }).signature).not.toBe(base);
  });
});
