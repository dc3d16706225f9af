import type { SignatureV4 } from '@smithy/signature-v4';
import type { BedrockCredentials } from './bedrock-key';
import { smithySerde, smithySignature } from './smithy-packages';

const signers = new Map<string, SignatureV4>();
const MAX_SIGNERS = 256;

/** One signer per key and region: each caches its derived signing keys for the day. */
function findSigner(credentials: BedrockCredentials): SignatureV4 {
  const id = `${credentials.accessKeyId}|${credentials.secretAccessKey}|${credentials.region}`;
  let signer = signers.get(id);
  if (!signer) {
    signer = new (smithySignature().SignatureV4)({
      service: 'bedrock',
      region: credentials.region,
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
      // Node's SHA-256 as the AWS SDK itself uses it on Node (@smithy/hash-node, now part of @smithy/core).
      sha256: smithySerde().Hash.bind(null, 'sha256'),
      // AWS signs the path of every service but S3 URI-encoded once more: a model id sent as `…v2%3A0` is signed
      // as `…v2%253A0` (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html).
      uriEscapePath: true,
    });
    if (signers.size >= MAX_SIGNERS) signers.clear();
    signers.set(id, signer);
  }
  return signer;
}

export interface SignableBedrockRequest {
  /** the URL exactly as it will be called, its path already percent-encoded */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * AWS Signature Version 4 for service `bedrock`, signed for the host actually called (a channel's Base URL
 * included). Answers the headers to send: the given ones plus x-amz-date, x-amz-content-sha256 and
 * authorization. Host is signed but not returned: the HTTP client derives the same value from the URL.
 */
export async function signBedrockRequest(
  request: SignableBedrockRequest,
  credentials: BedrockCredentials,
  signingDate?: Date,
): Promise<Record<string, string>> {
  const url = new URL(request.url);
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => (query[name] = value));
  const signed = await findSigner(credentials).sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      body: request.body,
    },
    signingDate ? { signingDate } : {},
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') headers[name] = value;
  return headers;
}
