import { pipeSeparatedKeyProblem, splitPipeSeparatedKey } from '../shared/pipe-separated-key';

/** An AWS Bedrock channel key, `AccessKeyId|SecretAccessKey|region`, as the console composes it. */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export const BEDROCK_KEY_FORMAT =
  'AccessKeyId|SecretAccessKey|region (e.g. AKIAIOSFODNN7EXAMPLE|wJalr…|us-east-1)';

/** AWS region names: us-east-1, eu-central-2, ap-southeast-4, us-gov-west-1 … */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** Why the key cannot be an AWS Bedrock key, naming the expected format, or null when it can. Never echoes the key. */
export function validateBedrockKey(key: string): string | null {
  const problem =
    pipeSeparatedKeyProblem(key, [3]) ??
    (REGION.test(splitPipeSeparatedKey(key)[2]!)
      ? null
      : 'the third part is not an AWS region name such as us-east-1');
  return problem === null ? null : `AWS Bedrock keys have the form ${BEDROCK_KEY_FORMAT}: ${problem}`;
}

/** The credentials in a key that validateBedrockKey accepted; throws otherwise. */
export function parseBedrockKey(key: string): BedrockCredentials {
  const problem = validateBedrockKey(key);
  if (problem !== null) throw new Error(problem);
  const [accessKeyId, secretAccessKey, region] = splitPipeSeparatedKey(key) as [string, string, string];
  return { accessKeyId, secretAccessKey, region };
}
