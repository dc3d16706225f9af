import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError, type CanonicalChatInput } from '../../canonical/translation';
import { buildAnthropicHttpRequest, convertToAnthropicRequest } from './convert-to-anthropic-request';
import { JSON_OBJECT_INSTRUCTION } from './convert-to-anthropic-output-format';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function inputOf(request: Partial<ChatRequest>, extra: Partial<CanonicalChatInput> = {}): CanonicalChatInput {
  return {
    channel: { baseUrl: 'https://api.anthropic.com', key: 'sk-ant-channel', other: '', config: {} },
    request: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel: 'claude-sonnet-4-5-20250929',
    isStream: false,
    clientHeaders: {},
    ...extra,
  };
}

const convert = (request: Partial<ChatRequest>, upstreamModel = 'claude-sonnet-4-5-20250929') =>
  convertToAnthropicRequest(inputOf(request, { upstreamModel }));
const messagesOf = (messages: ChatMessage[]) => convert({ messages }).messages;

describe('canonical chat → Anthropic request', () => {
  it('sends a tool round trip with thinking, images and cache marks as the Messages API documents it', () => {
    const request: ChatRequest = {
      model: 'claude-sonnet-4-5',
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are a weather assistant.', cache_control: { type: 'ephemeral' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is the weather in Paris and Berlin?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
        { role: 'developer', content: 'Answer in one sentence.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check both cities.' },
            {
              type: 'thinking',
              thinking: 'The user wants the weather in two cities; I can ask for both at once.',
              signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...',
            },
          ],
          tool_calls: [
            {
              id: 'toolu_01A09q90qw90lq917835lq9',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
            {
              id: 'call_2_berlin',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location": "Berlin"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01A09q90qw90lq917835lq9', content: '18°C, sunny' },
        {
          role: 'tool',
          tool_call_id: 'call_2_berlin',
          is_error: true,
          content: [
            { type: 'text', text: 'The weather station did not answer; here is its last camera picture.' },
            { type: 'image_url', image_url: { url: 'https://images.example/berlin.jpg' } },
          ],
        },
        { role: 'user', content: 'Thanks! Which city is warmer?' },
      ],
      max_completion_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      temperature: 0.2,
      top_k: 40,
      seed: 7,
      frequency_penalty: 0.5,
      stop: 'END',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Get the current weather in a given location',
            parameters: {
              type: 'object',
              properties: { location: { type: 'string', description: 'The city' } },
              required: ['location'],
            },
            strict: true,
          },
          cache_control: { type: 'ephemeral' },
        },
        {
          type: 'web_search_20250305',
          vendor_protocol: 'anthropic-messages',
          definition: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
        },
        { type: 'web_search', vendor_protocol: 'openai-responses', definition: { type: 'web_search' } },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      user: 'user-42',
      some_openai_field_we_do_not_know: true,
    };
    const built = buildAnthropicHttpRequest(inputOf(request, { isStream: true }));
    expect(JSON.parse(String(built.body))).toEqual(
      JSON.parse(fixture('request-tool-round-trip-with-thinking.json')),
    );
    expect(built.url).toBe('https://api.anthropic.com/v1/messages');
    expect(built.headers).toEqual({
      'content-type': 'application/json',
      'x-api-key': 'sk-ant-channel',
      'anthropic-version': '2023-06-01',
    });
  });

  it("forwards the client's anthropic-beta but keeps the version the body is written for", () => {
    const built = buildAnthropicHttpRequest(
      inputOf(
        {},
        {
          channel: { baseUrl: 'https://proxy.example/anthropic/v1', key: 'k', other: '', config: {} },
          clientHeaders: { 'anthropic-beta': 'context-1m-2025-08-07', 'anthropic-version': '2026-10-21' },
        },
      ),
    );
    expect(built.url).toBe('https://proxy.example/anthropic/v1/messages');
    expect(built.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(built.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('turns images into base64 or url sources and refuses the types Claude cannot read', () => {
    const image = (url: string) =>
      messagesOf([{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }]);
    expect(image('data:image/jpg;base64,AAAA')[0].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
    ]);
    expect(image('https://example.com/cat.webp')[0].content).toEqual([
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.webp' } },
    ]);
    expect(() => image('data:image/svg+xml;base64,AAAA')).toThrow(
      'Anthropic does not support images of type',
    );
    expect(() => image('ftp://example.com/cat.png')).toThrow(UnsupportedOptionError);
  });

  it('turns PDF and text files into documents, keeping their cache marks, and refuses file ids', () => {
    const text = Buffer.from('Quarterly numbers: up 4%').toString('base64');
    const [turn] = messagesOf([
      {
        role: 'user',
        content: [
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'report.pdf' },
            cache_control: { type: 'ephemeral', ttl: '1h' },
          },
          { type: 'file', file: { file_data: `data:text/plain;base64,${text}` } },
          { type: 'text', text: 'Summarise both.' },
        ],
      },
    ]);
    expect(turn.content).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
        title: 'report.pdf',
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'Quarterly numbers: up 4%' },
      },
      { type: 'text', text: 'Summarise both.' },
    ]);
    expect(() =>
      messagesOf([{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }]),
    ).toThrow('Anthropic does not support file parts by file_id');
  });

  it('merges consecutive tool results and user text into one user turn, tool results first', () => {
    const messages = messagesOf([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'w', arguments: '{"c":"Paris"}' } },
          { id: 'b', type: 'function', function: { name: 'w', arguments: '{"c":"Rome"}' } },
        ],
      },
      { role: 'user', content: 'Be quick.' },
      { role: 'tool', tool_call_id: 'a', content: 'sunny' },
      { role: 'tool', tool_call_id: 'b', content: 'rain' },
    ]);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'sunny' },
      { type: 'tool_result', tool_use_id: 'b', content: 'rain' },
      { type: 'text', text: 'Be quick.' },
    ]);
  });

  it('sends back signed thinking and redacted thinking first, and leaves out reasoning it cannot sign', () => {
    const [, assistant] = messagesOf([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        reasoning_content: 'a DeepSeek-style reasoning text',
        content: [
          { type: 'text', text: 'Hello!' },
          { type: 'thinking', thinking: 'unsigned, from another vendor' },
          { type: 'thinking', thinking: 'signed', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque' },
        ],
      },
    ]);
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'signed', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Hello!' },
    ]);
  });

  it('reads empty tool arguments as {} and refuses arguments that are not a JSON object, naming the call', () => {
    const call = (args: string) =>
      messagesOf([
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_time', arguments: args } }],
        },
      ])[1].content;
    expect(call('')).toEqual([{ type: 'tool_use', id: 'call_9', name: 'get_time', input: {} }]);
    expect(() => call('{"city": "Par')).toThrow(
      'Anthropic does not support tool call arguments that are not a JSON object: the arguments of tool call call_9 (get_time)',
    );
    expect(() => call('[1,2]')).toThrow(UnsupportedOptionError);
  });

  it('maps tool_choice and parallel_tool_calls, and sends no tool_choice without tools', () => {
    const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'get_time' } }];
    const choice = (request: Partial<ChatRequest>) => convert({ tools, ...request }).tool_choice;
    expect(choice({})).toBeUndefined();
    expect(choice({ tool_choice: 'auto' })).toEqual({ type: 'auto' });
    expect(choice({ tool_choice: 'none' })).toEqual({ type: 'none' });
    expect(choice({ tool_choice: 'required' })).toEqual({ type: 'any' });
    expect(choice({ tool_choice: { type: 'function', function: { name: 'get_time' } } })).toEqual({
      type: 'tool',
      name: 'get_time',
    });
    expect(choice({ parallel_tool_calls: false })).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(choice({ tool_choice: 'required', parallel_tool_calls: false })).toEqual({
      type: 'any',
      disable_parallel_tool_use: true,
    });
    expect(convert({ tools }).tools).toEqual([
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
    const foreignOnly = convert({
      tools: [{ type: 'google_search', vendor_protocol: 'gemini', definition: {} }],
      tool_choice: 'required',
    });
    expect(foreignOnly.tools).toBeUndefined();
    expect(foreignOnly.tool_choice).toBeUndefined();
  });

  it('asks for structured output for a JSON schema and for JSON in the system prompt otherwise', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const structured = convert({
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } },
    });
    expect(structured.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(structured.system).toBeUndefined();
    const jsonObject = convert({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'A city?' },
      ],
      response_format: { type: 'json_object' },
    });
    expect(jsonObject.output_config).toBeUndefined();
    expect(jsonObject.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: JSON_OBJECT_INSTRUCTION },
    ]);
    expect(JSON_OBJECT_INSTRUCTION).toMatch(/^Answer with one valid JSON object and nothing else/);
    expect(convert({ response_format: { type: 'text' } })).not.toHaveProperty('system');
    const older = convert(
      { response_format: { type: 'json_schema', json_schema: { name: 'place', schema } } },
      'claude-3-5-haiku-20241022',
    );
    expect(older.output_config).toBeUndefined();
    expect(older.system).toEqual([
      {
        type: 'text',
        text: `${JSON_OBJECT_INSTRUCTION} It follows this JSON Schema:\n${JSON.stringify(schema)}`,
      },
    ]);
  });

  it('marks strict tools strict only for models with structured outputs', () => {
    const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'get_time', strict: true } }];
    expect(convert({ tools }, 'claude-sonnet-4-5').tools).toEqual([
      { name: 'get_time', input_schema: { type: 'object', properties: {} }, strict: true },
    ]);
    expect(convert({ tools }, 'claude-3-7-sonnet-latest').tools).toEqual([
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it('refuses what Anthropic cannot do: several choices, audio input, logprobs', () => {
    expect(() => convert({ n: 2 })).toThrow(new UnsupportedOptionError('Anthropic', 'n > 1'));
    expect(convert({ n: 1 }).messages).toHaveLength(1);
    expect(() =>
      convert({
        messages: [
          { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] },
        ],
      }),
    ).toThrow('Anthropic does not support audio input');
    expect(() => convert({ logprobs: true })).toThrow('Anthropic does not support logprobs');
  });

  it("keeps tool ids Anthropic accepts and fits other vendors' ids the same way in calls and results", () => {
    // Kimi-style ids that differ only in a character Anthropic refuses must stay two ids
    const ids = ['toolu_01A09q90qw90lq917835lq9', 'functions.get_time:0', 'functions.get_time.0'];
    const messages = messagesOf([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        tool_calls: ids.map((id) => ({
          id,
          type: 'function' as const,
          function: { name: 'get_time', arguments: '{}' },
        })),
      },
      ...ids.map((id) => ({ role: 'tool' as const, tool_call_id: id, content: 'noon' })),
    ]);
    const calls = (messages[1].content as { id: string }[]).map((block) => block.id);
    const results = (messages[2].content as { tool_use_id: string }[]).map((block) => block.tool_use_id);
    expect(calls[0]).toBe(ids[0]);
    expect(results).toEqual(calls);
    expect(new Set(calls).size).toBe(3);
    for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('sends the user as metadata.user_id and stream only when streaming', () => {
    expect(convert({ user: 'u-1' }).metadata).toEqual({ user_id: 'u-1' });
    expect(convert({})).not.toHaveProperty('stream');
    expect(convertToAnthropicRequest(inputOf({}, { isStream: true })).stream).toBe(true);
  });
});
