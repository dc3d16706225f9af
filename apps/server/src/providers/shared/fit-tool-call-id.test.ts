import { describe, expect, it } from 'vitest';
import { encodeGeminiToolCallId } from '../gemini/gemini-tool-call-id';
import { OPENAI_TOOL_CALL_IDS, fitToolCallId } from './fit-tool-call-id';

const MISTRAL = { maxLength: 9, pattern: /^[A-Za-z0-9]{9}$/ };
const BEDROCK = { maxLength: 64, pattern: /^[A-Za-z0-9_-]+$/ };

describe('fitting a tool call id to a vendor', () => {
  it('keeps an id that fits as it is', () => {
    expect(fitToolCallId('call_abc123', OPENAI_TOOL_CALL_IDS)).toBe('call_abc123');
    expect(fitToolCallId('aB3xK9mP2', MISTRAL)).toBe('aB3xK9mP2');
  });

  it('drops the Gemini thought signature riding in the id', () => {
    const id = encodeGeminiToolCallId('call_1', 'c2tpcF90aG91Z2h0X3NpZ25hdHVyZQ==');
    expect(id).not.toBe('call_1');
    expect(fitToolCallId(id, OPENAI_TOOL_CALL_IDS)).toBe('call_1');
  });

  it('turns an id that does not fit into the same short digest every time', () => {
    const long = `toolu_${'x'.repeat(60)}`;
    const fitted = fitToolCallId(long, OPENAI_TOOL_CALL_IDS);
    expect(fitted).toMatch(/^[0-9a-f]{40}$/);
    expect(fitToolCallId(long, OPENAI_TOOL_CALL_IDS)).toBe(fitted);
    expect(fitToolCallId(`${long}y`, OPENAI_TOOL_CALL_IDS)).not.toBe(fitted);
  });

  it('gives Mistral nine letters and digits, whatever the id was', () => {
    for (const id of ['toolu_01A09q90qw90lq917835lq9', 'call_0fypS1hVX', 'short', 'abc-12345']) {
      expect(fitToolCallId(id, MISTRAL)).toMatch(/^[A-Za-z0-9]{9}$/);
    }
    expect(fitToolCallId('call_0fypS1hVX', MISTRAL)).toBe(fitToolCallId('call_0fypS1hVX', MISTRAL));
  });

  it('gives Bedrock letters, digits, _ and - only, up to 64', () => {
    expect(fitToolCallId('tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', BEDROCK)).toBe('tooluse_kZJMlvQmRJ6eAyJE5GIl7Q');
    expect(fitToolCallId('call.1:a', BEDROCK)).toMatch(/^[0-9a-f]{64}$/);
    expect(fitToolCallId('x'.repeat(65), BEDROCK)).toMatch(/^[0-9a-f]{64}$/);
  });
});
