import type { CanonicalChatInput, TranslatorChannel, UpstreamHttpRequest } from '../../canonical/translation';
import { parseBedrockKey } from './bedrock-key';
import { resolveBedrockModelId } from './bedrock-model-ids';
import { signBedrockRequest } from './bedrock-signing';
import { convertToBedrockRequest } from './convert-to-bedrock-request';

/**
 * `https://bedrock-runtime.{region}.amazonaws.com/model/{modelId}/converse[-stream]`, or the channel's Base URL
 * in place of the regional endpoint (a corporate proxy, a VPC endpoint, a test stand-in). The model id is one
 * percent-encoded path segment, as the AWS SDK sends it: `:` of versioned ids and `/` of ARNs are encoded.
 */
export function buildBedrockUrl(
  channel: TranslatorChannel,
  region: string,
  modelId: string,
  isStream: boolean,
): string {
  const base = channel.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;
  return `${base}/model/${encodeURIComponent(modelId)}/${isStream ? 'converse-stream' : 'converse'}`;
}

/** A canonical chat request → a signed Converse (or ConverseStream) call. Asynchronous: signing is. */
export async function buildBedrockRequest(
  input: CanonicalChatInput,
  signingDate?: Date,
): Promise<UpstreamHttpRequest> {
  const credentials = parseBedrockKey(input.channel.key);
  const modelId = resolveBedrockModelId(input.upstreamModel, credentials.region);
  const url = buildBedrockUrl(input.channel, credentials.region, modelId, input.isStream);
  const body = JSON.stringify(convertToBedrockRequest(input.request, modelId, input.clientHeaders));
  const headers = {
    'content-type': 'application/json',
    accept: input.isStream ? 'application/vnd.amazon.eventstream' : 'application/json',
  };
  return { url, headers: await signBedrockRequest({ url, headers, body }, credentials, signingDate), body };
}
