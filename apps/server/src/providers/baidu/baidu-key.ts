import { pipeSeparatedKeyProblem, splitPipeSeparatedKey } from '../shared/pipe-separated-key';

/**
 * A Baidu channel key: `APIKey|SecretKey` of a Qianfan application (the v1 API, signed in with an access
 * token), or one Qianfan API key (`bce-v3/ALTAK-…`, the OpenAI-compatible v2 API, sent as a bearer token).
 */
export type BaiduKey =
  { version: 'v1'; apiKey: string; secretKey: string } | { version: 'v2'; apiKey: string };

export const BAIDU_KEY_FORMAT = 'APIKey|SecretKey (Qianfan v1), or one Qianfan API key bce-v3/… (v2)';

/** Why the key cannot be a Baidu key, naming the expected format, or null when it can. Never echoes the key. */
export function validateBaiduKey(key: string): string | null {
  const problem = pipeSeparatedKeyProblem(key, [1, 2]);
  return problem === null ? null : `Baidu Wenxin keys have the form ${BAIDU_KEY_FORMAT}: ${problem}`;
}

/** The credentials in a key that validateBaiduKey accepts; throws (without the key) otherwise. */
export function parseBaiduKey(key: string): BaiduKey {
  const problem = validateBaiduKey(key);
  if (problem !== null) throw new Error(problem);
  const [apiKey, secretKey] = splitPipeSeparatedKey(key);
  return secretKey === undefined
    ? { version: 'v2', apiKey: apiKey! }
    : { version: 'v1', apiKey: apiKey!, secretKey };
}
