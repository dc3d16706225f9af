import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToDashScopeRequest } from './convert-to-dashscope-request';

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'qwen-plus',
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});

const image = { type: 'image_url' as const, image_url: { url: 'https://example.com/dog.jpeg' } };

describe('a canonical request as DashScope’s generation body', () => {
  it('asks for message results, incremental streams and the sampling options', () => {
    expect(
      convertToDashScopeRequest(
        request({
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ],
          max_tokens: 100,
          temperature: 0.7,
          top_p: 0.8,
          top_k: 20,
          seed: 42,
          stop: 'END',
          presence_penalty: 0.5,
          repetition_penalty: 1.05,
          response_format: { type: 'json_object' },
        }),
        'qwen-plus',
        true,
      ),
    ).toEqual({
      model: 'qwen-plus',
      input: {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      },
      parameters: {
        result_format: 'message',
        incremental_output: true,
        max_tokens: 100,
        temperature: 0.7,
        top_p: 0.8,
        top_k: 20,
        seed: 42,
        stop: ['END'],
        presence_penalty: 0.5,
        repetition_penalty: 1.05,
        response_format: { type: 'json_object' },
      },
    });
  });

  it('calls a -internet model without the suffix and with web search', () => {
    const body = convertToDashScopeRequest(request({}), 'qwen-max-internet', false);
    expect(body.model).toBe('qwen-max');
    expect(body.parameters.enable_search).toBe(true);
  });

  it('sends tools, a forced tool, calls and results as DashScope takes them', () => {
    const body = convertToDashScopeRequest(
      request({
        tools: [
          { type: 'function', function: { name: 'get_current_weather', parameters: { type: 'object' } } },
        ],
        tool_choice: { type: 'function', function: { name: 'get_current_weather' } },
        messages: [
          { role: 'user', content: 'Weather in Hangzhou?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_current_weather', arguments: '{"location":"杭州市"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '24℃' },
        ],
      }),
      'qwen-plus',
      false,
    );
    expect(body.parameters).toMatchObject({
      tools: [
        { type: 'function', function: { name: 'get_current_weather', parameters: { type: 'object' } } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_current_weather' } },
    });
    expect(body.input.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_current_weather', arguments: '{"location":"杭州市"}' },
          },
        ],
      },
      { role: 'tool', content: '24℃', tool_call_id: 'call_1' },
    ]);
  });

  it('asks for thinking with its budget', () => {
    const body = convertToDashScopeRequest(
      request({ thinking: { type: 'enabled', budget_tokens: 500 } }),
      'qwen-plus',
      true,
    );
    expect(body.parameters).toMatchObject({ enable_thinking: true, thinking_budget: 500 });
  });

  it('sends every content as parts to a vision model, images as {image}', () => {
    const body = convertToDashScopeRequest(
      request({
        messages: [
          { role: 'system', content: 'Describe images.' },
          { role: 'user', content: [image, { type: 'text', text: 'What is this?' }] },
        ],
      }),
      'qwen-vl-max',
      false,
    );
    expect(body.input.messages).toEqual([
      { role: 'system', content: [{ text: 'Describe images.' }] },
      { role: 'user', content: [{ image: 'https://example.com/dog.jpeg' }, { text: 'What is this?' }] },
    ]);
  });

  it('refuses an image to a text model, naming DashScope and the model', () => {
    const call = () =>
      convertToDashScopeRequest(
        request({ messages: [{ role: 'user', content: [image] }] }),
        'qwen-plus',
        false,
      );
    expect(call).toThrow(UnsupportedOptionError);
    expect(call).toThrow('Alibaba DashScope does not support image input: qwen-plus reads text only');
  });

  it.each<[string, Partial<ChatRequest>, string]>([
    ['n > 1', { n: 3 }, 'n > 1'],
    ['json_schema', { response_format: { type: 'json_schema', json_schema: { name: 'x' } } }, 'json_schema'],
    [
      'audio',
      {
        messages: [
          { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] },
        ],
      },
      'audio input',
    ],
  ])('refuses %s', (_name, fields, option) => {
    expect(() => convertToDashScopeRequest(request(fields), 'qwen-plus', false)).toThrow(option);
  });
});
