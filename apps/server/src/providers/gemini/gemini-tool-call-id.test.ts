import { describe, expect, it } from 'vitest';
import { decodeGeminiToolCallId, encodeGeminiToolCallId } from './gemini-tool-call-id';

describe('thought signatures in tool call ids', () => {
  it('round-trips a standard base64 signature, padding included', () => {
    for (const signature of ['CiQB+/9=', 'EqsCCqgC/w==', 'AAAA']) {
      const id = encodeGeminiToolCallId('m2vq8x1c', signature);
      expect(decodeGeminiToolCallId(id)).toEqual({ id: 'm2vq8x1c', thoughtSignature: signature });
    }
  });

  it('leaves ids without a signature as they are', () => {
    expect(encodeGeminiToolCallId('call_1')).toBe('call_1');
    expect(decodeGeminiToolCallId('call_1')).toEqual({ id: 'call_1' });
  });

  it('stays within [A-Za-z0-9_-], which every vendor accepts in tool ids (Anthropic is the strictest)', () => {
    const id = encodeGeminiToolCallId('m2vq8x1c', 'CiQB+/9/+w==');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
