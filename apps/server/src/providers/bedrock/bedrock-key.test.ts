import { describe, expect, it } from 'vitest';
import { parseBedrockKey, validateBedrockKey } from './bedrock-key';

describe('AWS Bedrock keys', () => {
  it.each([
    'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1',
    'AK1|SK1|eu-west-1',
    ' AKIA|secret+/=|ap-southeast-2 ',
    'AKIA|secret|us-gov-west-1',
  ])('accepts %s', (key) => {
    expect(validateBedrockKey(key)).toBeNull();
  });

  it.each([
    ['AKIA|secret', 'it has 2 parts'],
    ['AKIA', 'it has 1 part '],
    ['AKIA|secret|us-east-1|extra', 'it has 4 parts'],
    ['AKIA||us-east-1', 'a part is empty'],
    ['AKIA|secret| ', 'a part is empty'],
    ['AKIA|sec ret|us-east-1', 'contains spaces'],
    ['AKIA|secret|useast1', 'not an AWS region name'],
    ['AKIA|secret|US-EAST-1', 'not an AWS region name'],
    ['AKIA|secret|us-east', 'not an AWS region name'],
  ])('refuses %s with the expected format and the problem', (key, problem) => {
    const message = validateBedrockKey(key);
    expect(message).toContain('AccessKeyId|SecretAccessKey|region');
    expect(message).toContain(problem);
  });

  it('never repeats the secret in its message', () => {
    expect(validateBedrockKey('AKIA|topsecretvalue|nowhere')).not.toContain('topsecretvalue');
  });

  it('parses the parts, trimmed', () => {
    expect(parseBedrockKey(' AKIA | secret/+= | us-east-1 ')).toEqual({
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret/+=',
      region: 'us-east-1',
    });
    expect(() => parseBedrockKey('AKIA|secret')).toThrow('AccessKeyId|SecretAccessKey|region');
  });
});
