import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToCohereRequest } from './convert-to-cohere-request';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'gets the weather of a given location',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'command-a',
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});

describe('canonical chat → Cohere v2 chat request', () => {
  it('sends a tool round trip as Cohere documents it: the text before the calls as tool_plan', () => {
    const body = convertToCohereRequest(
      request({
        messages: [
          { role: 'developer', content: 'Answer briefly.' },
          { role: 'user', content: 'What is the weather in Toronto?' },
          {
            role: 'assistant',
            content: 'I will look up the weather.',
            tool_calls: [
              {
                id: 'get_weather_nsz5zm3w56q3',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'get_weather_nsz5zm3w56q3', content: '{"temperature": "20C"}' },
        ],
        tools: [weatherTool],
        tool_choice: 'auto',
        max_completion_tokens: 300,
        max_tokens: 999,
        temperature: 0.3,
        top_p: 0.9,
        stop: 'END',
        parallel_tool_calls: true,
        user: 'someone',
      }),
      'command-a-03-2025',
      true,
    );
    expect(body).toEqual(fixture('request-tool-round-trip.json'));
  });

  it('sends images, sampling, JSON output, thinking and the tool choices Cohere knows', () => {
    const body = convertToCohereRequest(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
            ],
          },
        ],
        top_k: 40,
        seed: 7,
        frequency_penalty: 0.5,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
        thinking: { type: 'enabled', budget_tokens: 2000 },
        tools: [
          weatherTool,
          { ...weatherTool, function: { ...weatherTool.function, name: 'other', strict: true } },
        ],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      }),
      'command-a-vision-07-2025',
      false,
    );
    expect(body).toMatchObject({
      model: 'command-a-vision-07-2025',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          ],
        },
      ],
      k: 40,
      seed: 7,
      frequency_penalty: 0.5,
      response_format: { type: 'json_object', json_schema: { type: 'object' } },
      thinking: { type: 'enabled', token_budget: 2000 },
      tool_choice: 'REQUIRED',
    });
    // A named tool is the only one offered; strictness belonged to the tool left out.
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(['get_weather']);
    expect(body.strict_tools).toBeUndefined();
    expect(
      convertToCohereRequest(request({ tools: [weatherTool], tool_choice: 'none' }), 'm', false).tool_choice,
    ).toBe('NONE');
    expect(
      convertToCohereRequest(request({ response_format: { type: 'json_object' } }), 'm', false)
        .response_format,
    ).toEqual({ type: 'json_object' });
  });

  it('sends an assistant turn with thinking back with its thinking, and drops vendor tools of other protocols', () => {
    const body = convertToCohereRequest(
      request({
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Greet back.' },
              { type: 'text', text: 'Hello!' },
            ],
          },
          { role: 'user', content: 'Again' },
        ],
        tools: [{ type: 'web_search', vendor_protocol: 'openai-responses', definition: {} }],
      }),
      'command-a-reasoning-08-2025',
      false,
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Greet back.' },
        { type: 'text', text: 'Hello!' },
      ],
    });
    expect(body.tools).toBeUndefined();
  });

  it.each([
    ['n > 1', request({ n: 2 })],
    ['logprobs', request({ logprobs: true })],
    ['logit_bias', request({ logit_bias: { '50256': -100 } })],
    [
      'audio input',
      request({
        messages: [
          { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }] },
        ],
      }),
    ],
    [
      'file parts',
      request({
        messages: [
          {
            role: 'user',
            content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,AA==' } }],
          },
        ],
      }),
    ],
    [
      'images in tool results',
      request({
        messages: [
          {
            role: 'tool',
            tool_call_id: 'x',
            content: [{ type: 'image_url', image_url: { url: 'https://a/b.png' } }],
          },
        ],
      }),
    ],
    [
      'tool_choice',
      request({ tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'missing' } } }),
    ],
  ])('refuses %s, naming Cohere', (option, refused) => {
    expect(() => convertToCohereRequest(refused, 'm', false)).toThrow(UnsupportedOptionError);
    expect(() => convertToCohereRequest(refused, 'm', false)).toThrow(`Cohere does not support ${option}`);
  });
});
