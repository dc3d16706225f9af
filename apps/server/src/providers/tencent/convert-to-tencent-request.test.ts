import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToTencentRequest } from './convert-to-tencent-request';

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'hunyuan-turbo',
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});

const weather: NonNullable<ChatRequest['tools']>[number] = {
  type: 'function',
  function: {
    name: 'get_current_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: {} },
  },
};

describe('a canonical request as Hunyuan’s ChatCompletions body', () => {
  it('names the model, puts one system message first and sends the sampling options', () => {
    expect(
      convertToTencentRequest(
        request({
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'system', content: 'Be brief.' },
          ],
          temperature: 0.5,
          top_p: 0.9,
          stop: ['END'],
          seed: 7,
          max_tokens: 100,
        }),
        'hunyuan-turbo',
        true,
      ),
    ).toEqual({
      Model: 'hunyuan-turbo',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'Hi' },
      ],
      Stream: true,
      Temperature: 0.5,
      TopP: 0.9,
      Stop: ['END'],
      Seed: 7,
    });
  });

  it('sends tools with their schema as JSON text, calls and results with their ids', () => {
    const body = convertToTencentRequest(
      request({
        tools: [weather],
        messages: [
          { role: 'user', content: 'Weather in Beijing?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_current_weather', arguments: '{"location":"北京"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":25}' },
        ],
      }),
      'hunyuan-functioncall',
      false,
    );
    expect(body.Tools).toEqual([
      {
        Type: 'function',
        Function: {
          Name: 'get_current_weather',
          Parameters: '{"type":"object","properties":{}}',
          Description: 'Weather',
        },
      },
    ]);
    expect(body.Messages.slice(1)).toEqual([
      {
        Role: 'assistant',
        Content: '',
        ToolCalls: [
          {
            Id: 'call_1',
            Type: 'function',
            Function: { Name: 'get_current_weather', Arguments: '{"location":"北京"}' },
          },
        ],
      },
      { Role: 'tool', Content: '{"temperature":25}', ToolCallId: 'call_1' },
    ]);
  });

  it('forces a named tool as ToolChoice custom', () => {
    const body = convertToTencentRequest(
      request({
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_current_weather' } },
      }),
      'hunyuan-turbo',
      false,
    );
    expect(body).toMatchObject({
      ToolChoice: 'custom',
      CustomTool: { Function: { Name: 'get_current_weather' } },
    });
  });

  it('sends images as Contents to a vision model', () => {
    const body = convertToTencentRequest(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      }),
      'hunyuan-vision',
      false,
    );
    expect(body.Messages).toEqual([
      {
        Role: 'user',
        Contents: [
          { Type: 'text', Text: 'What is this?' },
          { Type: 'image_url', ImageUrl: { Url: 'https://example.com/cat.png' } },
        ],
      },
    ]);
  });

  it.each<[string, Partial<ChatRequest>, string]>([
    ['n > 1', { n: 2 }, 'n > 1'],
    ['json output', { response_format: { type: 'json_object' } }, 'response_format json_object'],
    [
      'an image to a text model',
      {
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }],
      },
      'image input',
    ],
  ])('refuses %s, naming Tencent Hunyuan and the option', (_name, fields, option) => {
    const call = () => convertToTencentRequest(request(fields), 'hunyuan-turbo', false);
    expect(call).toThrow(UnsupportedOptionError);
    expect(call).toThrow(/^Tencent Hunyuan does not support/);
    expect(call).toThrow(option);
  });
});
