import { describe, expect, it } from 'vitest';
import { encodeFloat32Base64 } from './float32-base64';

describe('encodeFloat32Base64', () => {
  it('encodes float32 little endian values', () => {
    const encoded = encodeFloat32Base64([1, -0.5, 0.25]);
    expect([...new Float32Array(new Uint8Array(Buffer.from(encoded, 'base64')).buffer)]).toEqual([
      1, -0.5, 0.25,
    ]);
    expect(encodeFloat32Base64([1])).toBe('AACAPw==');
    expect(encodeFloat32Base64([])).toBe('');
  });
});
