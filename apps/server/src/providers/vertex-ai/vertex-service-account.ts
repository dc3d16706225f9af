import { createPrivateKey, type KeyObject } from 'node:crypto';

/** Google's token endpoint, where a service account key sends its JWT unless it names another. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** What Gatehouse uses of a service account key (https://cloud.google.com/iam/docs/keys-create-delete). */
export interface VertexServiceAccount {
  clientEmail: string;
  privateKey: KeyObject;
  /** the key's id, sent as the JWT's `kid` so Google finds the public key at once */
  privateKeyId: string;
  /** where the signed JWT is exchanged for an access token */
  tokenUri: string;
  /** the project the account belongs to, used when the channel names none */
  projectId: string;
}

export type ServiceAccountReading = { account: VertexServiceAccount } | { problem: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textField = (fields: Record<string, unknown>, name: string): string =>
  typeof fields[name] === 'string' ? fields[name].trim() : '';

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function readPrivateKey(pem: string): KeyObject | null {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' ? key : null;
  } catch {
    return null;
  }
}

/**
 * The service account key JSON that the Google Cloud console downloads, read and checked. The problem, when
 * there is one, says what is wrong without repeating any of the key.
 */
export function readVertexServiceAccount(json: string): ServiceAccountReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { problem: 'the service account key is not JSON' };
  }
  if (!isObject(parsed)) return { problem: 'the service account key is not a JSON object' };
  const type = textField(parsed, 'type');
  if (type === 'authorized_user') {
    return {
      problem:
        'user credentials (gcloud auth application-default login) cannot be used: create a key for a ' +
        'service account with the Vertex AI User role',
    };
  }
  if (type !== 'service_account') {
    return { problem: 'the JSON is not a service account key ("type": "service_account")' };
  }
  const clientEmail = textField(parsed, 'client_email');
  if (clientEmail === '') return { problem: 'the service account key has no client_email' };
  const pem = textField(parsed, 'private_key');
  if (pem === '') return { problem: 'the service account key has no private_key' };
  const privateKey = readPrivateKey(pem);
  if (!privateKey) return { problem: 'the private_key of the service account key is not an RSA private key' };
  const tokenUri = textField(parsed, 'token_uri') || GOOGLE_TOKEN_URI;
  if (!isHttpUrl(tokenUri)) return { problem: 'the token_uri of the service account key is not a URL' };
  return {
    account: {
      clientEmail,
      privateKey,
      privateKeyId: textField(parsed, 'private_key_id'),
      tokenUri,
      projectId: textField(parsed, 'project_id'),
    },
  };
}
