/** A Spark WebSocket key as the console describes it: `APPID|APISecret|APIKey`. */
export interface SparkCredentials {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export const SPARK_KEY_FORMAT = 'APPID|APISecret|APIKey (or the APIPassword of the HTTP API, without "|")';

/**
 * Whether a key is for the WebSocket API (`APPID|APISecret|APIKey`) or the OpenAI-compatible HTTP API (its
 * APIPassword, which has no "|"). Both come from the application's page in iFlytek's console.
 */
export const isSparkWebSocketKey = (key: string): boolean => key.includes('|');

/** Why the key cannot be a Spark key, naming the expected format, or null when it can. Never echoes the key. */
export function validateSparkKey(key: string): string | null {
  const trimmed = key.trim();
  if (trimmed === '') return `iFlytek Spark keys have the form ${SPARK_KEY_FORMAT}: the key is empty`;
  if (!isSparkWebSocketKey(trimmed)) return null;
  const parts = trimmed.split('|');
  const problem =
    parts.length !== 3
      ? `it has ${parts.length} parts separated by "|"`
      : parts.some((part) => part.trim() === '')
        ? 'a part is empty'
        : null;
  return problem === null ? null : `iFlytek Spark keys have the form ${SPARK_KEY_FORMAT}: ${problem}`;
}

/** The credentials in a WebSocket key that validateSparkKey accepted; throws otherwise. */
export function parseSparkKey(key: string): SparkCredentials {
  const problem = validateSparkKey(key);
  if (problem !== null || !isSparkWebSocketKey(key)) throw new Error(problem ?? 'not a WebSocket key');
  const [appId, apiSecret, apiKey] = key
    .trim()
    .split('|')
    .map((part) => part.trim()) as [string, string, string];
  return { appId, apiSecret, apiKey };
}
