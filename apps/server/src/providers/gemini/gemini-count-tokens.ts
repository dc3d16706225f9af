import { UpstreamFormatError } from '../../canonical/translation';
import type { JsonCapability, PassThroughRequestInput, ReadResponse } from '../provider-types';
import { geminiApiEndpoint, type GeminiEndpoint } from './gemini-endpoint';

/**
 * A Gemini client's countTokens body (https://ai.google.dev/api/tokens), forwarded to the channel's
 * :countTokens. A whole generateContentRequest names its model (`models/…`) inside, which must be the one
 * the channel serves when the channel maps the model; otherwise the client's bytes go as they came.
 */
function countTokensBody(input: PassThroughRequestInput): Buffer | string {
  const inner = input.body.generateContentRequest;
  if (!input.isModelMapped || typeof inner !== 'object' || inner === null || !('model' in inner))
    return input.rawBody;
  return JSON.stringify({
    ...input.body,
    generateContentRequest: { ...inner, model: `models/${input.upstreamModel}` },
  });
}

/** `{"totalTokens": n, …}` forwarded as it came; counting is not billed, so it carries no usage. */
export function readGeminiTokenCount(body: Buffer): ReadResponse {
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch {
    answer = null;
  }
  if (typeof (answer as { totalTokens?: unknown } | null)?.totalTokens !== 'number')
    throw new UpstreamFormatError('the Gemini token count is not {"totalTokens": n}');
  return { body, usage: null, completionText: '', answer };
}

export function createGeminiCountTokensCapability(
  endpoint: GeminiEndpoint = geminiApiEndpoint,
): JsonCapability<PassThroughRequestInput> {
  return {
    buildRequest: (input) => ({
      url: endpoint.buildUrl(input.channel, input.upstreamModel, 'countTokens'),
      headers: endpoint.buildHeaders(input.channel),
      body: countTokensBody(input),
    }),
    readResponse: readGeminiTokenCount,
  };
}
