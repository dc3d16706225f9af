import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { convertToBedrockRequest } from './convert-to-bedrock-request';

const CLAUDE = 'anthropic.claude-3-5-sonnet-20241022-v2:0';

interface RequestFixture {
  modelId: string;
  canonical: ChatRequest;
  converse: unknown;
}

const fixture = JSON.parse(
  readFileSync(new URL('./__fixtures__/request-tools-thinking-cache.json', import.meta.url), 'utf8'),
) as RequestFixture;

const convert = (fields: Partial<ChatRequest>, modelId = CLAUDE) =>
  convertToBedrockRequest(
    { model: 'claude', messages: [{ role: 'user', content: 'Hi' }], ...fields },
    modelId,
  );

const refusal = (fields: Partial<ChatRequest>, modelId = CLAUDE) => {
  try {
    convert(fields, modelId);
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedOptionError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('canonical chat → Converse', () => {
  it('sends the documented body for system, images, documents, signed thinking, tool calls, results and cache marks', () => {
    expect(convertToBedrockRequest(fixture.canonical, fixture.modelId)).toEqual(fixture.converse);
  });

  it('is a minimal body for a minimal request', () => {
    expect(convert({}, 'amazon.nova-pro-v1:0')).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
    });
  });

  it('bounds Claude answers the client did not bound, above the thinking budget; other models keep their default', () => {
    const maxTokens = (fields: Partial<ChatRequest>, modelId = CLAUDE) =>
      convert(fields, modelId).inferenceConfig?.maxTokens;
    expect(maxTokens({})).toBe(8192);
    expect(maxTokens({}, 'us.anthropic.claude-sonnet-4-20250514-v1:0')).toBe(8192);
    expect(maxTokens({}, 'anthropic.claude-3-haiku-20240307-v1:0')).toBe(4096);
    expect(maxTokens({ thinking: { type: 'enabled', budget_tokens: 10000 } })).toBe(18192);
    expect(maxTokens({ max_tokens: 300 })).toBe(300);
    expect(maxTokens({}, 'amazon.nova-pro-v1:0')).toBeUndefined();
    expect(
      maxTokens({}, 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1'),
    ).toBeUndefined();
  });

  it.each<[string, Partial<ChatRequest>, string]>([
    ['n > 1', { n: 2 }, 'AWS Bedrock does not support n > 1'],
    ['logprobs', { logprobs: true }, 'AWS Bedrock does not support logprobs'],
    ['json_object', { response_format: { type: 'json_object' } }, 'response_format json_object'],
    [
      'an image URL',
      {
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        ],
      },
      'AWS Bedrock does not support image URLs: send images as base64 data URLs',
    ],
    [
      'an SVG image',
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2Zz4=' } }],
          },
        ],
      },
      'images of type image/svg+xml',
    ],
    [
      'audio',
      {
        messages: [
          { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } }] },
        ],
      },
      'AWS Bedrock does not support audio input',
    ],
    [
      'a file id',
      { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }] },
      'AWS Bedrock does not support file ids',
    ],
    [
      'arguments that are not JSON',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{oops' } }],
          },
        ],
      },
      'tool call arguments that are not JSON: tool call call_1',
    ],
  ])('refuses %s, naming the vendor and the option', (_name, fields, message) => {
    expect(refusal(fields)).toContain(message);
  });

  it('refuses Claude-only fields for other models', () => {
    expect(refusal({ thinking: { type: 'enabled', budget_tokens: 1024 } }, 'amazon.nova-pro-v1:0')).toBe(
      'AWS Bedrock does not support thinking: only for Claude models, not amazon.nova-pro-v1:0',
    );
    expect(convert({ top_k: 5 }).additionalModelRequestFields).toEqual({ top_k: 5 });
    const betas = { 'anthropic-beta': 'interleaved-thinking-2025-05-14, context-1m-2025-08-07' };
    expect(
      convertToBedrockRequest({ model: 'c', messages: [] }, CLAUDE, betas).additionalModelRequestFields,
    ).toEqual({
      anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'],
    });
    expect(() =>
      convertToBedrockRequest({ model: 'c', messages: [] }, 'amazon.nova-pro-v1:0', betas),
    ).toThrow('AWS Bedrock does not support anthropic-beta');
    const profileArn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1';
    expect(convert({ top_k: 5 }, profileArn).additionalModelRequestFields).toEqual({ top_k: 5 });
    expect(convert({ thinking: { type: 'disabled' } }).additionalModelRequestFields).toBeUndefined();
  });

  it('maps max_completion_tokens over max_tokens, stop lists, temperature and top_p', () => {
    expect(
      convert({ max_tokens: 10, max_completion_tokens: 20, stop: ['a', '', 'b'], temperature: 0, top_p: 0.5 })
        .inferenceConfig,
    ).toEqual({
      maxTokens: 20,
      stopSequences: ['a', 'b'],
      temperature: 0,
      topP: 0.5,
    });
  });

  it('leaves out thinking without a signature and messages left empty, and keeps turns alternating', () => {
    const messages: ChatMessage[] = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'One' },
      {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'unsigned' }],
        reasoning_content: 'also unsigned',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: 'Two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data: 'ZW5j' },
          { type: 'text', text: 'Ok' },
        ],
      },
    ];
    expect(convert({ messages, max_tokens: 100 })).toEqual({
      inferenceConfig: { maxTokens: 100 },
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'One' }, { text: 'Two' }] },
        { role: 'assistant', content: [{ reasoningContent: { redactedContent: 'ZW5j' } }, { text: 'Ok' }] },
      ],
    });
  });

  it('puts images of tool results in the result and marks cached results', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Look' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [
          { type: 'text', text: 'screen:' },
          {
            type: 'image_url',
            image_url: { url: 'data:image/jpeg;base64,/9j/' },
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ];
    const tools = [{ type: 'function' as const, function: { name: 'shot' } }];
    const body = convert({ messages, tools });
    expect(body.messages[1]!.content).toEqual([{ toolUse: { toolUseId: 'c1', name: 'shot', input: {} } }]);
    expect(body.messages[2]!.content).toEqual([
      {
        toolResult: {
          toolUseId: 'c1',
          content: [{ text: 'screen:' }, { image: { format: 'jpeg', source: { bytes: '/9j/' } } }],
        },
      },
      { cachePoint: { type: 'default' } },
    ]);
    expect(body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'shot', inputSchema: { json: { type: 'object', properties: {} } } } }],
    });
  });

  it('maps tool_choice; "none" withholds the tools unless the conversation already used them', () => {
    const tools = [
      { type: 'function' as const, function: { name: 'f', parameters: { type: 'object' }, strict: true } },
    ];
    expect(convert({ tools, tool_choice: 'required' }).toolConfig?.toolChoice).toEqual({ any: {} });
    expect(
      convert({ tools, tool_choice: { type: 'function', function: { name: 'f' } } }).toolConfig?.toolChoice,
    ).toEqual({
      tool: { name: 'f' },
    });
    expect(convert({ tools }).toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } }, strict: true } }],
    });
    expect(convert({ tools, tool_choice: 'none' }).toolConfig).toBeUndefined();
    const used: ChatMessage[] = [
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ];
    expect(convert({ tools, tool_choice: 'none', messages: used }).toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } }, strict: true } }],
    });
  });

  it('asks for structured output with the schema as JSON text', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    expect(
      convert({
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'reply', description: 'One answer', schema },
        },
      }).outputConfig,
    ).toEqual({
      textFormat: {
        type: 'json_schema',
        structure: {
          jsonSchema: { schema: JSON.stringify(schema), name: 'reply', description: 'One answer' },
        },
      },
    });
    expect(convert({ response_format: { type: 'text' } }).outputConfig).toBeUndefined();
  });

  it('gives documents names Bedrock accepts, each different', () => {
    const file = (filename?: string) => ({
      type: 'file' as const,
      file: { file_data: 'data:text/plain;base64,aGk=', ...(filename ? { filename } : {}) },
    });
    const body = convert({
      messages: [
        { role: 'user', content: [file('report_2024 (final).txt'), file('report_2024 (final).txt'), file()] },
      ],
    });
    const names = body.messages[0]!.content.map((block) => ('document' in block ? block.document.name : ''));
    expect(names).toEqual(['report-2024 (final)', 'report-2024 (final) (2)', 'document']);
  });
});
