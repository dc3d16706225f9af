import { describe, expect, it } from 'vitest';
import { findObjectAfterKey } from './find-object-after-key';

describe('findObjectAfterKey', () => {
  it('parses the object after the last occurrence of the key, braces inside strings included', () => {
    const text = '{"usage":{"a":1},"choices":[],"usage" : {"b":2,"note":"}{","inner":{"c":3}}}';
    expect(findObjectAfterKey(text, 'usage')).toEqual({ b: 2, note: '}{', inner: { c: 3 } });
  });

  it('ignores an escaped key inside a string and a key not followed by an object', () => {
    expect(findObjectAfterKey('{"text":"say \\"usageMetadata\\": {1}"}', 'usageMetadata')).toBeUndefined();
    expect(findObjectAfterKey('{"usage":null}', 'usage')).toBeUndefined();
    expect(findObjectAfterKey('{"other":{}}', 'usage')).toBeUndefined();
  });

  it('gives undefined for an object that is cut off', () => {
    expect(findObjectAfterKey('[{"usageMetadata":{"promptTokenCount":3', 'usageMetadata')).toBeUndefined();
  });
});
