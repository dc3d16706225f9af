import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSparkAuthUrl, signSparkRequest } from './sign-spark-url';

const example = JSON.parse(
  readFileSync(new URL('./__fixtures__/url-signing-example.json', import.meta.url), 'utf8'),
) as {
  host: string;
  path: string;
  date: string;
  apiSecret: string;
  apiKey: string;
  signedText: string;
  digestHex: string;
};

describe("iFlytek's signed WebSocket URL", () => {
  it('signs the documented example to the documented digest', () => {
    const signed = signSparkRequest(example.host, example.path, example.date, example);
    expect(signed.signedText).toBe(example.signedText);
    expect(Buffer.from(signed.signature, 'base64').toString('hex')).toBe(example.digestHex);
    expect(Buffer.from(signed.authorization, 'base64').toString('utf8')).toBe(
      `api_key="${example.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signed.signature}"`,
    );
  });

  it('puts the authorization, the RFC 1123 date and the host in the query of the same path', () => {
    const url = new URL(
      buildSparkAuthUrl(`wss://${example.host}${example.path}`, example, new Date(Date.parse(example.date))),
    );
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://spark-api.xf-yun.com/v1.1/chat');
    expect(url.searchParams.get('date')).toBe(example.date);
    expect(url.searchParams.get('host')).toBe(example.host);
    expect(url.searchParams.get('authorization')).toBe(
      signSparkRequest(example.host, example.path, example.date, example).authorization,
    );
  });

  it('signs the host as the server sees it, with a port that is not the default', () => {
    const url = new URL(
      buildSparkAuthUrl('ws://127.0.0.1:8123/v3.5/chat', example, new Date(Date.parse(example.date))),
    );
    expect(url.searchParams.get('host')).toBe('127.0.0.1:8123');
    const origin = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString('utf8');
    const expected = signSparkRequest('127.0.0.1:8123', '/v3.5/chat', example.date, example).signature;
    expect(origin).toContain(`signature="${expected}"`);
  });
});
