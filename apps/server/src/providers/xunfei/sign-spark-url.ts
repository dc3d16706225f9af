import { createHmac } from 'node:crypto';

export interface SparkSignature {
  /** the string signed: `host: …\ndate: …\nGET /path HTTP/1.1` */
  signedText: string;
  /** base64 of HMAC-SHA256(signedText) with the APISecret */
  signature: string;
  /** base64 of `api_key="…", algorithm="hmac-sha256", headers="host date request-line", signature="…"` */
  authorization: string;
}

/**
 * iFlytek's URL authentication for WebSocket APIs (https://xfyun.cn/doc/spark/general_url_authentication.html):
 * the host, the date (RFC 1123, within 300 s of iFlytek's clock) and the request line are signed with the
 * APISecret by HMAC-SHA256, and the signature travels, with the APIKey, base64-encoded in the URL.
 */
export function signSparkRequest(
  host: string,
  path: string,
  date: string,
  credentials: { apiKey: string; apiSecret: string },
): SparkSignature {
  const signedText = `host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`;
  const signature = createHmac('sha256', credentials.apiSecret).update(signedText, 'utf8').digest('base64');
  const origin = `api_key="${credentials.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  return { signedText, signature, authorization: Buffer.from(origin, 'utf8').toString('base64') };
}

/**
 * The signed URL: `{ws(s)://host/path}?authorization=…&date=…&host=…`. The host signed is the URL's own
 * (with its port when it is not the default), as the server sees it in its Host header.
 */
export function buildSparkAuthUrl(
  url: string,
  credentials: { apiKey: string; apiSecret: string },
  date: Date = new Date(),
): string {
  const parsed = new URL(url);
  const rfc1123 = date.toUTCString();
  const { authorization } = signSparkRequest(parsed.host, parsed.pathname, rfc1123, credentials);
  const query = new URLSearchParams({ authorization, date: rfc1123, host: parsed.host });
  return `${parsed.origin}${parsed.pathname}?${query.toString()}`;
}
