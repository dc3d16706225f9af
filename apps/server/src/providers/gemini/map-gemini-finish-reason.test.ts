import { describe, expect, it } from 'vitest';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['IMAGE_SAFETY', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'stop'],
    ['UNEXPECTED_TOOL_CALL', 'stop'],
    ['LANGUAGE', 'stop'],
    ['OTHER', 'stop'],
    ['SOMETHING_NEW', 'stop'],
  ])('%s → %s', (reason, expected) => {
    expect(mapGeminiFinishReason(reason, false)).toBe(expected);
  });

  it('says tool_calls whenever the candidate holds a function call, and null while it goes on', () => {
    expect(mapGeminiFinishReason('STOP', true)).toBe('tool_calls');
    expect(mapGeminiFinishReason(undefined, true)).toBeNull();
  });
});
