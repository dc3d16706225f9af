import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToBaiduRequest } from './convert-to-baidu-request';

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'ERNIE-4.0-8K',
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});

const weatherTool: NonNullable<ChatRequest['tools']>[number] = {
  type: 'function',
  function: {
    name: 'get_current_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};

describe('a canonical request as ERNIE’s chat body', () => {
  it('puts system and developer messages in the system field and sends the sampling options', () => {
    const body = convertToBaiduRequest(
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Answer in English.' }] },
          { role: 'user', content: 'Hi' },
        ],
        temperature: 0.5,
        top_p: 0.8,
        max_tokens: 100,
        max_completion_tokens: 200,
        stop: 'END',
        user: 'user-7',
        frequency_penalty: 0.3,
        penalty_score: 1.2,
      }),
      true,
    );
    expect(body).toEqual({
      messages: [{ role: 'user', content: 'Hi' }],
      system: 'Be brief.\n\nAnswer in English.',
      stream: true,
      temperature: 0.5,
      top_p: 0.8,
      penalty_score: 1.2,
      frequency_penalty: 0.3,
      stop: ['END'],
      max_output_tokens: 200,
      user_id: 'user-7',
    });
  });

  it.each([
    [0, 0.01],
    [1.7, 1],
  ])('takes temperature %d as %d, the nearest ERNIE accepts', (given, sent) => {
    expect(convertToBaiduRequest(request({ temperature: given }), false).temperature).toBe(sent);
  });

  it('merges consecutive turns of one side, as ERNIE wants them to alternate', () => {
    const body = convertToBaiduRequest(
      request({
        messages: [
          { role: 'user', content: 'First.' },
          { role: 'user', content: [{ type: 'text', text: 'Second.' }] },
          { role: 'assistant', content: 'A' },
          { role: 'assistant', content: 'B' },
          { role: 'user', content: 'Third.' },
        ],
      }),
      false,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'First.\n\nSecond.' },
      { role: 'assistant', content: 'A\n\nB' },
      { role: 'user', content: 'Third.' },
    ]);
  });

  it('sends a tool round trip as functions, a function_call turn and a function result', () => {
    const body = convertToBaiduRequest(
      request({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather in Shenzhen?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_current_weather', arguments: '{"location":"深圳"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":25}' },
        ],
      }),
      false,
    );
    expect(body.functions).toEqual([
      {
        name: 'get_current_weather',
        description: 'The weather in a city',
        parameters: weatherTool.function.parameters,
      },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Shenzhen?' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_current_weather', arguments: '{"location":"深圳"}' },
      },
      { role: 'function', name: 'get_current_weather', content: '{"temperature":25}' },
    ]);
  });

  it('forces a named tool and sends no functions for tool_choice none', () => {
    const forced = convertToBaiduRequest(
      request({
        tools: [weatherTool],
        tool_choice: { type: 'function', function: { name: 'get_current_weather' } },
      }),
      false,
    );
    expect(forced.tool_choice).toEqual({ type: 'function', function: { name: 'get_current_weather' } });
    const none = convertToBaiduRequest(request({ tools: [weatherTool], tool_choice: 'none' }), false);
    expect(none.functions).toBeUndefined();
  });

  it.each<[string, Partial<ChatRequest>, string]>([
    ['n > 1', { n: 2 }, 'n > 1'],
    [
      'an image',
      {
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }],
      },
      'image input',
    ],
    [
      'json_schema',
      { response_format: { type: 'json_schema', json_schema: { name: 'x' } } },
      'response_format json_schema',
    ],
    [
      'an assistant turn first',
      {
        messages: [
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Hi' },
        ],
      },
      'do not alternate',
    ],
    [
      'an assistant turn last',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      },
      'ends with an assistant turn',
    ],
    [
      'two tool calls in one turn',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
              { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'a', content: '1' },
          { role: 'tool', tool_call_id: 'b', content: '2' },
        ],
      },
      'several tool calls',
    ],
  ])('refuses %s, naming Baidu Wenxin and the option', (_name, fields, option) => {
    const call = () => convertToBaiduRequest(request(fields), false);
    expect(call).toThrow(UnsupportedOptionError);
    expect(call).toThrow(/^Baidu Wenxin does not support/);
    expect(call).toThrow(option);
  });
});
