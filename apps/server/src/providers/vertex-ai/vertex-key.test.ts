import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestServiceAccount,
  type TestServiceAccount,
} from '../../../test/support/google-token-stand-in';
import { parseVertexKey, readVertexLocation, validateVertexConfig, validateVertexKey } from './vertex-key';

let account: TestServiceAccount;
/** the key file with some fields changed, as one line (the console minifies it into the key) */
let accountWith: (changes: Record<string, unknown>) => string;

beforeAll(() => {
  account = createTestServiceAccount({
    tokenUri: 'https://oauth2.googleapis.com/token',
    projectId: 'acme-prod',
  });
  accountWith = (changes) => JSON.stringify({ ...JSON.parse(account.json), ...changes });
});

const keyOf = (region: string, project: string, json: string) => `${region}|${project}|${json}`;

describe('Vertex AI keys (region|project|service account JSON)', () => {
  it.each(['us-central1', 'europe-west4', 'northamerica-northeast1', 'global', 'us', 'eu'])(
    'accepts the location %s',
    (region) => {
      expect(validateVertexKey(keyOf(region, 'acme-prod', accountWith({})))).toBeNull();
    },
  );

  it('reads the parts: the project of the channel, else the one of the service account', () => {
    const credentials = parseVertexKey(keyOf(' us-east5 ', 'other-project', accountWith({})));
    expect(credentials).toMatchObject({ region: 'us-east5', projectId: 'other-project' });
    expect(credentials.account).toMatchObject({
      clientEmail: account.clientEmail,
      tokenUri: 'https://oauth2.googleapis.com/token',
      projectId: 'acme-prod',
    });
    expect(credentials.account.privateKey.asymmetricKeyType).toBe('rsa');
    expect(parseVertexKey(keyOf('us-east5', '', accountWith({}))).projectId).toBe('acme-prod');
    expect(parseVertexKey(keyOf('us-east5', '123456789012', accountWith({}))).projectId).toBe('123456789012');
  });

  it('takes Google as the token endpoint when the key names none', () => {
    const credentials = parseVertexKey(keyOf('us-east5', 'acme-prod', accountWith({ token_uri: undefined })));
    expect(credentials.account.tokenUri).toBe('https://oauth2.googleapis.com/token');
  });

  it.each<[string, () => string, string]>([
    ['two parts', () => 'us-central1|acme-prod', 'it has 2 parts separated by "|"'],
    ['no region', () => keyOf('', 'acme-prod', accountWith({})), 'the region is empty'],
    [
      'a region that is not one',
      () => keyOf('US Central', 'acme-prod', accountWith({})),
      'not a Vertex AI location',
    ],
    [
      'no project anywhere',
      () => keyOf('us-central1', '', accountWith({ project_id: '' })),
      'the project id is empty',
    ],
    [
      'a project name',
      () => keyOf('us-central1', 'My Project', accountWith({})),
      'not a Google Cloud project id',
    ],
    ['no JSON', () => keyOf('us-central1', 'acme-prod', ''), 'the service account key is empty'],
    [
      'JSON that is not',
      () => keyOf('us-central1', 'acme-prod', '{"type": "service_account",'),
      'is not JSON',
    ],
    ['a JSON list', () => keyOf('us-central1', 'acme-prod', '[]'), 'not a JSON object'],
    [
      'user credentials',
      () => keyOf('us-central1', 'acme-prod', '{"type":"authorized_user","refresh_token":"1//0g"}'),
      'gcloud auth application-default login',
    ],
    [
      'another type',
      () => keyOf('us-central1', 'acme-prod', accountWith({ type: 'external_account' })),
      '"type": "service_account"',
    ],
    [
      'no client_email',
      () => keyOf('us-central1', 'acme-prod', accountWith({ client_email: '' })),
      'no client_email',
    ],
    [
      'no private_key',
      () => keyOf('us-central1', 'acme-prod', accountWith({ private_key: undefined })),
      'no private_key',
    ],
    [
      'a private_key that is not a key',
      () =>
        keyOf(
          'us-central1',
          'acme-prod',
          accountWith({ private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }),
        ),
      'not an RSA private key',
    ],
    [
      'a token_uri that is not a URL',
      () => keyOf('us-central1', 'acme-prod', accountWith({ token_uri: 'oauth2' })),
      'token_uri',
    ],
  ])('refuses %s, naming the expected format and the problem', (_, key, problem) => {
    const message = validateVertexKey(key());
    expect(message).toContain('region|project id|service account key JSON');
    expect(message).toContain(problem);
    expect(() => parseVertexKey(key())).toThrow(problem);
  });

  it('never repeats the private key or the JSON in its messages', () => {
    const broken = keyOf('nowhere', 'acme-prod', accountWith({}));
    const message = validateVertexKey(broken)!;
    expect(message).not.toContain('PRIVATE KEY');
    expect(message).not.toContain(account.privateKeyPem.split('\n')[1]);
    expect(message).not.toContain(account.clientEmail);
  });

  it('checks the channel fields the key is composed from, for a form whose key came out empty', () => {
    const fields = { region: 'us-central1', vertex_ai_project_id: 'acme-prod', vertex_ai_adc: account.json };
    expect(validateVertexConfig(fields)).toBeNull();
    expect(validateVertexConfig({ ...fields, region: '' })).toContain('the region is empty');
    expect(validateVertexConfig({ ...fields, vertex_ai_adc: '' })).toContain(
      'the service account key is empty',
    );
    expect(validateVertexConfig({})).toContain('region|project id|service account key JSON');
  });

  it("reads where requests go without loading the key's private key", () => {
    expect(readVertexLocation(keyOf('global', 'acme-prod', '{"not":"read"}'))).toEqual({
      region: 'global',
      projectId: 'acme-prod',
    });
    expect(readVertexLocation(keyOf('us-east5', '', accountWith({})))).toEqual({
      region: 'us-east5',
      projectId: 'acme-prod',
    });
    expect(() => readVertexLocation('not a key')).toThrow('Vertex AI keys have the form');
  });
});
