/**
 * Anthropic's model names as clients send them → the Bedrock model ids of the same models
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html). `isProfileOnly` marks models
 * Bedrock serves only through a cross-region inference profile: called by their bare id they fail with
 * "on-demand throughput isn't supported", so the profile of the channel's geography is used instead
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/inference-profiles-support.html).
 *
 * Any other name is passed on unchanged, so a channel's model mapping can name any Bedrock model id, inference
 * profile id or ARN (`us.anthropic.claude-3-5-sonnet-20241022-v2:0`, `amazon.nova-pro-v1:0`, `arn:aws:…`).
 */
const claudeModelIds: Readonly<Record<string, { id: string; isProfileOnly?: boolean }>> = {
  'claude-instant-1.2': { id: 'anthropic.claude-instant-v1' },
  'claude-2.0': { id: 'anthropic.claude-v2' },
  'claude-2.1': { id: 'anthropic.claude-v2:1' },
  'claude-3-haiku-20240307': { id: 'anthropic.claude-3-haiku-20240307-v1:0' },
  'claude-3-sonnet-20240229': { id: 'anthropic.claude-3-sonnet-20240229-v1:0' },
  'claude-3-opus-20240229': { id: 'anthropic.claude-3-opus-20240229-v1:0' },
  'claude-3-5-sonnet-20240620': { id: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
  'claude-3-5-sonnet-20241022': { id: 'anthropic.claude-3-5-sonnet-20241022-v2:0' },
  'claude-3-5-haiku-20241022': { id: 'anthropic.claude-3-5-haiku-20241022-v1:0' },
  'claude-3-7-sonnet-20250219': { id: 'anthropic.claude-3-7-sonnet-20250219-v1:0', isProfileOnly: true },
  'claude-sonnet-4-20250514': { id: 'anthropic.claude-sonnet-4-20250514-v1:0', isProfileOnly: true },
  'claude-opus-4-20250514': { id: 'anthropic.claude-opus-4-20250514-v1:0', isProfileOnly: true },
  'claude-opus-4-1-20250805': { id: 'anthropic.claude-opus-4-1-20250805-v1:0', isProfileOnly: true },
  'claude-sonnet-4-5-20250929': { id: 'anthropic.claude-sonnet-4-5-20250929-v1:0', isProfileOnly: true },
  'claude-haiku-4-5-20251001': { id: 'anthropic.claude-haiku-4-5-20251001-v1:0', isProfileOnly: true },
  'claude-opus-4-5-20251101': { id: 'anthropic.claude-opus-4-5-20251101-v1:0', isProfileOnly: true },
};

/** The inference-profile prefix of a region's geography; other regions (us-gov, ca, sa …) call bare ids. */
function profileGeography(region: string): string | null {
  if (region.startsWith('us-gov-')) return null;
  if (region.startsWith('us-')) return 'us';
  if (region.startsWith('eu-')) return 'eu';
  if (region.startsWith('ap-')) return 'apac';
  return null;
}

/** The Bedrock model id to call for the (mapped) model name, in the channel's region. */
export function resolveBedrockModelId(upstreamModel: string, region: string): string {
  const known = claudeModelIds[upstreamModel];
  if (!known) return upstreamModel;
  const geography = known.isProfileOnly ? profileGeography(region) : null;
  return geography ? `${geography}.${known.id}` : known.id;
}

/**
 * The vendor a Bedrock model id names (`anthropic` in `us.anthropic.claude-…`, `amazon` in `amazon.nova-pro-v1:0`),
 * or null when the id does not say (ARNs of application inference profiles, names left to the channel's mapping).
 */
export function findBedrockModelVendor(modelId: string): string | null {
  if (modelId.startsWith('arn:')) return null;
  const match = /^(?:(?:us|us-gov|eu|apac|jp|au|ca|global)\.)?([a-z0-9-]+)\.[a-z0-9]/.exec(modelId);
  return match ? match[1]! : null;
}
