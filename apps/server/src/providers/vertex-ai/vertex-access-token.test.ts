import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestServiceAccount,
  fetchCredentialForTests,
  startGoogleTokenStandIn,
  type GoogleTokenStandIn,
} from '../../../test/support/google-token-stand-in';
import {
  CredentialRefusedError,
  type CredentialFetch,
  type UpstreamHttpRequest,
} from '../../canonical/translation';
import { fetchVertexAccessToken, prepareVertexCredential, VERTEX_SCOPE } from './vertex-access-token';
import { parseVertexKey } from './vertex-key';

let google: GoogleTokenStandIn;
beforeAll(async () => {
  google = await startGoogleTokenStandIn();
});
afterAll(() => google.close());
beforeEach(() => {
  google.behaviour = {};
});

const channelKey = (json: string) => `us-central1|gatehouse-test|${JSON.stringify(JSON.parse(json))}`;

/** The relay's fetch, recording what was sent. */
function recordingFetch(): { fetch: CredentialFetch; sent: UpstreamHttpRequest[] } {
  const sent: UpstreamHttpRequest[] = [];
  return {
    sent,
    fetch: (request) => {
      sent.push(request);
      return fetchCredentialForTests(request);
    },
  };
}

describe('a service account key to an access token', () => {
  it('signs an RS256 JWT the token endpoint verifies, and gets a bearer token', async () => {
    const account = google.createServiceAccount();
    const { fetch, sent } = recordingFetch();
    const before = Date.now();
    const credential = await prepareVertexCredential({ key: channelKey(account.json) }, fetch);
    expect(credential.accessToken).toBe(google.issued.at(-1));
    expect(credential.expiresAt).toBeGreaterThanOrEqual(before + 3599_000);
    expect(credential.expiresAt).toBeLessThanOrEqual(Date.now() + 3599_000);

    const [request] = sent;
    expect(request).toMatchObject({
      url: google.tokenUri,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const form = new URLSearchParams(String(request!.body));
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const assertion = form.get('assertion')!;
    expect(decodeProtectedHeader(assertion)).toMatchObject({
      alg: 'RS256',
      typ: 'JWT',
      kid: JSON.parse(account.json).private_key_id,
    });
    const claims = decodeJwt(assertion);
    expect(claims).toMatchObject({ iss: account.clientEmail, aud: google.tokenUri, scope: VERTEX_SCOPE });
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('gives the token the life the endpoint says (expires_in)', async () => {
    google.behaviour = { expiresIn: 120 };
    const { account } = parseVertexKey(channelKey(google.createServiceAccount().json));
    const sentAt = Date.now();
    const credential = await fetchVertexAccessToken(account, fetchCredentialForTests, () => sentAt);
    expect(credential.expiresAt).toBe(sentAt + 120_000);
  });

  it('is refused, as the channel credentials, when the key is not the one Google knows', async () => {
    const known = google.createServiceAccount({
      clientEmail: 'rotated@gatehouse-test.iam.gserviceaccount.com',
    });
    // The same account, signed with an old key that was deleted since.
    const stale = createTestServiceAccount({ tokenUri: google.tokenUri, clientEmail: known.clientEmail });
    const failure = await prepareVertexCredential(
      { key: channelKey(stale.json) },
      fetchCredentialForTests,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CredentialRefusedError);
    expect((failure as Error).message).toBe(
      'Google refused an access token to the service account rotated@gatehouse-test.iam.gserviceaccount.com: ' +
        'invalid_grant (Invalid JWT Signature.)',
    );
    expect((failure as Error).message).not.toContain(stale.privateKeyPem.split('\n')[1]);
  });

  it('is refused when the account does not exist (any more)', async () => {
    const deleted = createTestServiceAccount({
      tokenUri: google.tokenUri,
      clientEmail: 'deleted@gatehouse-test.iam.gserviceaccount.com',
    });
    await expect(
      prepareVertexCredential({ key: channelKey(deleted.json) }, fetchCredentialForTests),
    ).rejects.toThrow('invalid_grant (Invalid grant: account not found)');
  });

  it('refuses a key that is not a service account key without calling Google', async () => {
    const calls = google.calls;
    const failure = await prepareVertexCredential(
      { key: 'us-central1|gatehouse-test|{"type":"service_account"}' },
      fetchCredentialForTests,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CredentialRefusedError);
    expect((failure as Error).message).toContain('no client_email');
    expect(google.calls).toBe(calls);
  });

  it('fails without blaming the key when the token endpoint is down or answers nonsense', async () => {
    const { account } = parseVertexKey(channelKey(google.createServiceAccount().json));
    google.behaviour = { error: { status: 503, json: { error: 'backend_error' } } };
    const down = await fetchVertexAccessToken(account, fetchCredentialForTests).catch(
      (error: unknown) => error,
    );
    expect(down).not.toBeInstanceOf(CredentialRefusedError);
    expect((down as Error).message).toBe("Google's token endpoint failed (HTTP 503): backend_error");
    google.behaviour = { error: { status: 200, json: { token_type: 'Bearer' } } };
    await expect(fetchVertexAccessToken(account, fetchCredentialForTests)).rejects.toThrow(
      "Google's token endpoint answered without an access token",
    );
  });

  it('asks once per call: caching and single flight are the relay’s', async () => {
    const key = channelKey(google.createServiceAccount().json);
    const calls = google.calls;
    const [first, second] = await Promise.all([
      prepareVertexCredential({ key }, fetchCredentialForTests),
      prepareVertexCredential({ key }, fetchCredentialForTests),
    ]);
    expect(google.calls).toBe(calls + 2);
    expect(first.accessToken).not.toBe(second.accessToken);
  });
});
