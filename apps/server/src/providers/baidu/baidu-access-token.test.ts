import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CredentialRefusedError,
  type CredentialFetch,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { fetchBaiduAccessToken } from './baidu-access-token';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));
const channel = { baseUrl: 'https://aip.example', key: 'my-api-key|my-secret-key' };
const NOW = 1_700_000_000_000;

function answering(status: number, body: Buffer) {
  const sent: UpstreamHttpRequest[] = [];
  const fetch: CredentialFetch = (request) => {
    sent.push(request);
    return Promise.resolve({ status, body });
  };
  return { fetch, sent };
}

describe('the access token of a Baidu APIKey|SecretKey channel', () => {
  it('is asked for with the client-credentials grant and expires when Baidu says', async () => {
    const { fetch, sent } = answering(200, fixture('token.json'));
    const credential = await fetchBaiduAccessToken(channel, fetch, () => NOW);
    expect(credential).toEqual({
      accessToken: '24.6c5e1ff107f0e8bcef8c46d3424a0e78.2592000.1485516651.282335-8574074',
      expiresAt: NOW + 2_592_000_000,
    });
    const url = new URL(sent[0]!.url);
    expect(sent[0]!.method).toBe('POST');
    expect(url.origin + url.pathname).toBe('https://aip.example/oauth/2.0/token');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'my-api-key',
      client_secret: 'my-secret-key',
    });
  });

  it.each(['token-error-unknown-client.json', 'token-error-wrong-secret.json'])(
    'is refused (%s) with Baidu’s words and never the secret',
    async (name) => {
      const { fetch } = answering(401, fixture(name));
      const error = await fetchBaiduAccessToken(channel, fetch).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CredentialRefusedError);
      expect((error as Error).message).toMatch(
        /^Baidu refused an access token to the channel's API key: invalid_client/,
      );
      expect((error as Error).message).not.toContain('my-secret-key');
    },
  );

  it('says the endpoint failed, not the key, on a server error, and hides the secret of a failed request', async () => {
    const failing = answering(503, Buffer.from('busy'));
    const error = await fetchBaiduAccessToken(channel, failing.fetch).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(CredentialRefusedError);
    expect((error as Error).message).toContain('HTTP 503');
    const unreachable: CredentialFetch = (request) =>
      Promise.reject(new Error(`connect refused ${request.url}`));
    const thrown = await fetchBaiduAccessToken(channel, unreachable).catch((caught: unknown) => caught);
    expect((thrown as Error).message).not.toContain('my-secret-key');
  });

  it('refuses a key in the wrong format without echoing it, and takes a v2 API key as it is', async () => {
    const { fetch, sent } = answering(200, fixture('token.json'));
    await expect(fetchBaiduAccessToken({ ...channel, key: 'a|b|c' }, fetch)).rejects.toBeInstanceOf(
      CredentialRefusedError,
    );
    const v2 = await fetchBaiduAccessToken({ ...channel, key: 'bce-v3/ALTAK-x/y' }, fetch, () => NOW);
    expect(v2.accessToken).toBe('bce-v3/ALTAK-x/y');
    expect(v2.expiresAt).toBeGreaterThan(NOW);
    expect(sent).toHaveLength(0);
  });
});
