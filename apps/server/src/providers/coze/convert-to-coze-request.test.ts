import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToCozeRequest, findCozeBotId } from './convert-to-coze-request';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'bot-7379462189365198898',
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});

describe('canonical chat → Coze chat v3 request', () => {
  it('sends the conversation as additional messages to the bot the model names, always streamed', () => {
    const body = convertToCozeRequest(
      request({
        messages: [
          { role: 'system', content: 'Answer in English.' },
          { role: 'user', content: 'What day is 1 October 2024?' },
          { role: 'assistant', content: 'A Tuesday.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And in this picture?' },
              { type: 'image_url', image_url: { url: 'https://example.com/calendar.png' } },
            ],
          },
        ],
        temperature: 0.2,
        max_tokens: 100,
        user: 'client-user',
      }),
      'bot-7379462189365198898',
      'ops-team',
    );
    expect(body).toEqual(fixture('request-conversation.json'));
  });

  it("takes the bot id as it is without the bot- prefix, and the client's user when the channel names none", () => {
    expect(findCozeBotId('bot-7342866812345')).toBe('7342866812345');
    expect(findCozeBotId('7342866812345')).toBe('7342866812345');
    expect(convertToCozeRequest(request({ user: 'alice' }), '734', '').user_id).toBe('alice');
    expect(convertToCozeRequest(request({}), '734', '  ').user_id).toBe('gatehouse');
    expect(convertToCozeRequest(request({ stream: false }), '734', '').stream).toBe(true);
  });

  it('sends text-only parts as plain text', () => {
    const body = convertToCozeRequest(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      }),
      '1',
      '',
    );
    expect(body.additional_messages).toEqual([
      { role: 'user', type: 'question', content: 'ab', content_type: 'text' },
    ]);
  });

  it.each([
    ['n > 1', request({ n: 3 })],
    ['tools', request({ tools: [{ type: 'function', function: { name: 'f' } }] })],
    ['response_format json_object', request({ response_format: { type: 'json_object' } })],
    [
      'inline images',
      request({
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }],
          },
        ],
      }),
    ],
    [
      'audio input',
      request({
        messages: [
          { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'mp3' } }] },
        ],
      }),
    ],
    ['tool results', request({ messages: [{ role: 'tool', tool_call_id: 'c', content: 'r' }] })],
    [
      'tool calls',
      request({
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
        ],
      }),
    ],
  ])('refuses %s, naming Coze', (option, refused) => {
    expect(() => convertToCozeRequest(refused, '1', '')).toThrow(UnsupportedOptionError);
    expect(() => convertToCozeRequest(refused, '1', '')).toThrow(`Coze does not support ${option}`);
  });
});
