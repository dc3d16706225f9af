import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToSparkFrame } from './convert-to-spark-frame';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));

const weather = {
  type: 'function' as const,
  function: {
    name: '天气查询',
    description: '天气插件可以提供天气相关信息。',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: '地点，比如北京。' },
        datetime: { type: 'string', description: '日期或时间，比如今天、明天。' },
      },
      required: ['location'],
    },
  },
};

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'generalv3.5',
  messages: [{ role: 'user', content: '你好' }],
  ...fields,
});

describe('canonical chat → Spark request frame', () => {
  it('sends the conversation, the sampling Spark has and the functions, as the reference shows', () => {
    const frame = convertToSparkFrame(
      request({
        messages: [
          { role: 'system', content: '你是知识渊博的助理' },
          { role: 'user', content: [{ type: 'text', text: '你好，讯飞星火' }] },
          { role: 'assistant', content: '你好！' },
          { role: 'user', content: '合肥今天天气怎么样？' },
        ],
        temperature: 0.5,
        max_tokens: 1024,
        top_k: 4,
        top_p: 0.9,
        presence_penalty: 1,
        user: 'user-1',
        tools: [weather],
      }),
      'generalv3.5',
      '12345',
    );
    expect(frame).toEqual(fixture('request-frame.json'));
  });

  it('names a default uid, cuts a long one to 32 characters, and sends no functions when told none', () => {
    expect(convertToSparkFrame(request({}), 'lite', 'app').header).toEqual({
      app_id: 'app',
      uid: 'gatehouse',
    });
    expect(convertToSparkFrame(request({ user: 'u'.repeat(40) }), 'lite', 'app').header.uid).toHaveLength(32);
    expect(
      convertToSparkFrame(request({ tools: [weather], tool_choice: 'none' }), 'lite', 'app').payload
        .functions,
    ).toBeUndefined();
  });

  it.each([
    ['n > 1', request({ n: 2 })],
    [
      'image input',
      request({
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://a/b.png' } }] }],
      }),
    ],
    [
      'tool results over the WebSocket API',
      request({ messages: [{ role: 'tool', tool_call_id: 'c', content: '晴' }] }),
    ],
    [
      'tool calls in the history over the WebSocket API',
      request({
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
        ],
      }),
    ],
  ])('refuses %s, naming iFlytek Spark', (option, refused) => {
    expect(() => convertToSparkFrame(refused, 'lite', 'app')).toThrow(UnsupportedOptionError);
    expect(() => convertToSparkFrame(refused, 'lite', 'app')).toThrow(
      `iFlytek Spark does not support ${option}`,
    );
  });
});
