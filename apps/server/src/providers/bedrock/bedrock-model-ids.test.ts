import { describe, expect, it } from 'vitest';
import { findBedrockModelVendor, resolveBedrockModelId } from './bedrock-model-ids';

describe('Bedrock model ids', () => {
  it('maps Anthropic names to Bedrock ids', () => {
    expect(resolveBedrockModelId('claude-3-5-sonnet-20241022', 'us-east-1')).toBe(
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
    );
    expect(resolveBedrockModelId('claude-3-haiku-20240307', 'eu-central-1')).toBe(
      'anthropic.claude-3-haiku-20240307-v1:0',
    );
    expect(resolveBedrockModelId('claude-2.1', 'us-east-1')).toBe('anthropic.claude-v2:1');
  });

  it("calls models served only through inference profiles by the profile of the channel's geography", () => {
    expect(resolveBedrockModelId('claude-sonnet-4-20250514', 'us-west-2')).toBe(
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
    );
    expect(resolveBedrockModelId('claude-3-7-sonnet-20250219', 'eu-west-3')).toBe(
      'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
    );
    expect(resolveBedrockModelId('claude-sonnet-4-5-20250929', 'ap-northeast-1')).toBe(
      'apac.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    expect(resolveBedrockModelId('claude-sonnet-4-20250514', 'us-gov-west-1')).toBe(
      'anthropic.claude-sonnet-4-20250514-v1:0',
    );
  });

  it('passes Bedrock ids, inference profiles, ARNs and unknown names unchanged', () => {
    for (const id of [
      'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
      'anthropic.claude-3-haiku-20240307-v1:0',
      'amazon.nova-pro-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3',
      'my-own-name',
    ]) {
      expect(resolveBedrockModelId(id, 'us-east-1')).toBe(id);
    }
  });

  it('reads the vendor an id names, and none from ARNs and plain names', () => {
    expect(findBedrockModelVendor('us.anthropic.claude-3-5-sonnet-20241022-v2:0')).toBe('anthropic');
    expect(findBedrockModelVendor('anthropic.claude-v2:1')).toBe('anthropic');
    expect(findBedrockModelVendor('global.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe('anthropic');
    expect(findBedrockModelVendor('amazon.nova-pro-v1:0')).toBe('amazon');
    expect(findBedrockModelVendor('us.meta.llama3-2-90b-instruct-v1:0')).toBe('meta');
    expect(
      findBedrockModelVendor('arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1'),
    ).toBeNull();
    expect(findBedrockModelVendor('claude-3-5-sonnet-latest')).toBeNull();
  });
});
