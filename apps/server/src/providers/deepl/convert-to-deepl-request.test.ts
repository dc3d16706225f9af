import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { buildDeepLRequest, convertToDeepLRequest } from './convert-to-deepl-request';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'deepl-en-us',
  messages: [{ role: 'user', content: 'Hallo' }],
  ...fields,
});

describe('chat → DeepL translate request', () => {
  it("translates the last user message into the model's language, with the system prompt as context", () => {
    const body = convertToDeepLRequest(
      request({
        messages: [
          { role: 'system', content: 'This is a greeting in a letter.' },
          { role: 'user', content: 'Bonjour' },
          { role: 'assistant', content: 'Hello' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Hello, ' },
              { type: 'text', text: 'world!' },
            ],
          },
        ],
        temperature: 0.3,
      }),
      'deepl-en-us',
    );
    expect(body).toEqual(fixture('request-translate.json'));
  });

  it('sends the key as DeepL-Auth-Key to the address its kind of key belongs to', () => {
    const upstream = buildDeepLRequest({
      channel: { baseUrl: 'https://api-free.deepl.com', key: 'f63c02c5-f056', other: '', config: {} },
      request: request({}),
      upstreamModel: 'deepl-zh',
      isStream: true,
      clientHeaders: {},
    });
    expect(upstream.url).toBe('https://api.deepl.com/v2/translate');
    expect(upstream.headers.authorization).toBe('DeepL-Auth-Key f63c02c5-f056');
    expect(JSON.parse(String(upstream.body))).toEqual({
      text: ['Hallo'],
      target_lang: 'ZH',
      show_billed_characters: true,
    });
  });

  it.each([
    ['a request without text to translate', request({ messages: [{ role: 'system', content: 'x' }] })],
    ['a request without text to translate', request({ messages: [{ role: 'user', content: '   ' }] })],
    ['n > 1', request({ n: 2 })],
    ['tools', request({ tools: [{ type: 'function', function: { name: 'f' } }] })],
    [
      'images, audio or files',
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What does this say?' },
              { type: 'image_url', image_url: { url: 'https://img.example/sign.png' } },
            ],
          },
        ],
      }),
    ],
  ])('refuses %s, naming DeepL', (option, refused) => {
    expect(() => convertToDeepLRequest(refused, 'deepl-zh')).toThrow(UnsupportedOptionError);
    expect(() => convertToDeepLRequest(refused, 'deepl-zh')).toThrow(`DeepL does not support ${option}`);
  });
});
