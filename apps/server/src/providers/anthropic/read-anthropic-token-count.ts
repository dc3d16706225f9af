import { UpstreamFormatError } from '../../canonical/translation';
import type { ReadResponse } from '../provider-types';

/**
 * An answer of `POST /v1/messages/count_tokens` (https://docs.anthropic.com/en/api/messages-count-tokens),
 * forwarded as it came: `{"input_tokens": n}`. Counting is not billed, so it carries no usage. Throws
 * UpstreamFormatError when the answer is not that.
 */
export function readAnthropicTokenCount(body: Buffer): ReadResponse {
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch {
    answer = null;
  }
  if (typeof (answer as { input_tokens?: unknown } | null)?.input_tokens !== 'number') {
    throw new UpstreamFormatError('the Anthropic token count is not {"input_tokens": n}');
  }
  return { body, usage: null, completionText: '', answer };
}
