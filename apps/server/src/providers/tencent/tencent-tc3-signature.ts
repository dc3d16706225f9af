import { createHash, createHmac } from 'node:crypto';

/**
 * Tencent Cloud API 3.0's signature v3, TC3-HMAC-SHA256, for a POST of a JSON body, as Hunyuan's "Signature
 * v3" page describes it (https://cloud.tencent.com/document/api/1729/101843; the procedure is the same for
 * every Tencent Cloud service). No small npm package does only this (the official SDK brings
 * its own HTTP client), so it is these few lines of node:crypto, tested against the example of Tencent's
 * documentation.
 */
export interface Tc3SigningInput {
  secretId: string;
  secretKey: string;
  /** the product, as in its host name: `hunyuan` */
  service: string;
  /** the Host header as sent (with the port when there is one) */
  host: string;
  /** the Content-Type header as sent */
  contentType: string;
  payload: string;
  /** Unix seconds, sent as X-TC-Timestamp; Tencent refuses a signature more than 5 minutes off */
  timestamp: number;
}

export interface Tc3Signature {
  authorization: string;
  /** the intermediate values Tencent's documentation shows, for tests and for a stand-in's check */
  hashedPayload: string;
  hashedCanonicalRequest: string;
  signature: string;
}

const ALGORITHM = 'TC3-HMAC-SHA256';
const SIGNED_HEADERS = 'content-type;host';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** The UTC date of the timestamp, as the credential scope names it (2019-02-25). */
const utcDate = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 10);

export function signTc3(input: Tc3SigningInput): Tc3Signature {
  const hashedPayload = sha256Hex(input.payload);
  const canonicalHeaders = `content-type:${input.contentType.toLowerCase()}\nhost:${input.host.toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, SIGNED_HEADERS, hashedPayload].join('\n');
  const hashedCanonicalRequest = sha256Hex(canonicalRequest);
  const date = utcDate(input.timestamp);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = [ALGORITHM, String(input.timestamp), scope, hashedCanonicalRequest].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return {
    authorization: `${ALGORITHM} Credential=${input.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`,
    hashedPayload,
    hashedCanonicalRequest,
    signature,
  };
}
