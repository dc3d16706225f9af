import { describe, expect, it } from 'vitest';
import { findDeepLBaseUrl } from './deepl-endpoint';

describe("the address of a DeepL key's translations", () => {
  it.each([
    [
      'a Free key at the default address',
      'https://api-free.deepl.com',
      'f63c02c5-f056:fx',
      'https://api-free.deepl.com',
    ],
    [
      'a Pro key at the default (Free) address',
      'https://api-free.deepl.com',
      'f63c02c5-f056',
      'https://api.deepl.com',
    ],
    [
      'a Free key set to the Pro address',
      'https://api.deepl.com',
      'f63c02c5-f056:fx',
      'https://api-free.deepl.com',
    ],
    ['a Pro key without any address', '', 'f63c02c5-f056', 'https://api.deepl.com'],
    [
      'a proxy, whatever the key',
      'https://deepl.proxy.example',
      'f63c02c5-f056:fx',
      'https://deepl.proxy.example',
    ],
  ])('sends %s where it belongs', (_, baseUrl, key, expected) => {
    expect(findDeepLBaseUrl(baseUrl, key)).toBe(expected);
  });
});
