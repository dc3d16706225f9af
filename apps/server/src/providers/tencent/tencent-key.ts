import { pipeSeparatedKeyProblem, splitPipeSeparatedKey } from '../shared/pipe-separated-key';

/**
 * A Tencent Hunyuan channel key as the console describes it, `AppId|SecretId|SecretKey`. API 3.0 signs with
 * SecretId and SecretKey only; the AppId (the account's, from the first Hunyuan API) is kept for the key's
 * documented format and not sent.
 */
export interface TencentCredentials {
  appId: string;
  secretId: string;
  secretKey: string;
}

export const TENCENT_KEY_FORMAT = 'AppId|SecretId|SecretKey (e.g. 1250000000|AKIDz8krbsJ5…|Gu5t9xGARN…)';

/** Why the key cannot be a Tencent key, naming the expected format, or null when it can. Never echoes the key. */
export function validateTencentKey(key: string): string | null {
  const problem = pipeSeparatedKeyProblem(key, [3]);
  return problem === null ? null : `Tencent Hunyuan keys have the form ${TENCENT_KEY_FORMAT}: ${problem}`;
}

/** The credentials in a key that validateTencentKey accepts; throws (without the key) otherwise. */
export function parseTencentKey(key: string): TencentCredentials {
  const problem = validateTencentKey(key);
  if (problem !== null) throw new Error(problem);
  const [appId, secretId, secretKey] = splitPipeSeparatedKey(key) as [string, string, string];
  return { appId, secretId, secretKey };
}
