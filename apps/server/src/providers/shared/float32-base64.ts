/**
 * An embedding as OpenAI answers it for `encoding_format: "base64"`: the vector's float32 values, little
 * endian, in base64 (what OpenAI's SDKs decode by default).
 */
export function encodeFloat32Base64(values: number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
