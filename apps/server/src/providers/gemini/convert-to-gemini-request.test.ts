import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError } from '../../canonical/translation';
import { SKIP_SIGNATURE_VALIDATION } from './convert-to-gemini-contents';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { encodeGeminiToolCallId } from './gemini-tool-call-id';

const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'client-model',
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});
const convert = (fields: Partial<ChatRequest>, model = 'gemini-2.5-flash') =>
  convertToGeminiRequest(request(fields), model);

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

describe('messages → contents', () => {
  it('gathers system and developer messages into systemInstruction and names the assistant "model"', () => {
    const body = convert({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'How are you?' },
      ],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello!' }] },
      { role: 'user', parts: [{ text: 'How are you?' }] },
    ]);
  });

  it('sends a conversation of system messages alone as the user turn, since Gemini needs one', () => {
    const body = convert({ messages: [{ role: 'system', content: 'Write a haiku about rain.' }] });
    expect(body.systemInstruction).toBeUndefined();
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Write a haiku about rain.' }] }]);
  });

  it('sends images, audio and PDFs inline from data URLs and https images as fileData with their type', () => {
    const body = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?', cache_control: { type: 'ephemeral' } },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'https://example.com/photos/cat.JPG?size=large' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          ],
        },
      ],
    });
    expect(body.contents[0].parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/photos/cat.JPG?size=large' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'audio/mp3', data: 'SUQz' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
    ]);
  });

  it('refuses an image URL whose media type cannot be told, and OpenAI file ids', () => {
    const image = (url: string): ChatMessage[] => [
      { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
    ];
    expect(() => convert({ messages: image('https://example.com/render?id=7') })).toThrow(
      /Gemini does not support image URLs without a file extension/,
    );
    expect(() =>
      convert({ messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }] }),
    ).toThrow(UnsupportedOptionError);
  });

  it('sends tool calls as functionCall parts and their results as functionResponse parts of one user turn', () => {
    const body = convert({
      messages: [
        { role: 'user', content: 'Weather in Paris and London?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp":21,"sky":"clear"}' },
        { role: 'tool', tool_call_id: 'call_b', content: 'city missing', is_error: true },
        { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
      ],
    });
    expect(body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'call_a', name: 'weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'call_b', name: 'weather', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_a', name: 'weather', response: { temp: 21, sky: 'clear' } } },
          { functionResponse: { id: 'call_b', name: 'weather', response: { error: 'city missing' } } },
          { functionResponse: { id: 'call_a', name: 'weather', response: { output: 'sunny' } } },
        ],
      },
    ]);
  });

  it('puts images of a tool result in functionResponse.parts', () => {
    const body = convert({
      messages: [
        {
          role: 'assistant',
          tool_calls: [{ id: 'shot', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'shot',
          content: [
            { type: 'text', text: 'the screen' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
      ],
    });
    expect(body.contents[1].parts[0].functionResponse).toEqual({
      id: 'shot',
      name: 'screenshot',
      response: { output: 'the screen' },
      parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
    });
  });

  it('refuses a tool result that answers no earlier call, and arguments that are not an object', () => {
    expect(() => convert({ messages: [{ role: 'tool', tool_call_id: 'nowhere', content: 'x' }] })).toThrow(
      /messages\[0\]\.tool_call_id nowhere answers no earlier assistant tool call/,
    );
    expect(() =>
      convert({
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }],
          },
        ],
      }),
    ).toThrow(/tool call arguments that are not a JSON object/);
  });

  it('gives the thought signature carried in a tool call id back to its functionCall part', () => {
    const signature = 'CiQBcsjafH+9/Q3rG0nqYlX2w1pZk8sTbVqo0aJ4Lx6eFhW7dXE=';
    const id = encodeGeminiToolCallId('m2vq8x1c', signature);
    const body = convert(
      {
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: id, content: 'done' },
        ],
      },
      'gemini-3-pro-preview',
    );
    expect(body.contents[0].parts[0]).toEqual({
      functionCall: { id: 'm2vq8x1c', name: 'f', args: {} },
      thoughtSignature: signature,
    });
    expect(body.contents[1].parts[0].functionResponse?.id).toBe('m2vq8x1c');
  });

  it('marks unsigned calls of another model for Gemini 3 only, on the first call of the turn', () => {
    const messages: ChatMessage[] = [
      {
        role: 'assistant',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
      },
    ];
    const gemini3 = convert({ messages }, 'gemini-3-flash-preview').contents[0].parts;
    expect(gemini3.map((part) => part.thoughtSignature)).toEqual([SKIP_SIGNATURE_VALIDATION, undefined]);
    const gemini25 = convert({ messages }, 'gemini-2.5-flash').contents[0].parts;
    expect(gemini25.map((part) => part.thoughtSignature)).toEqual([undefined, undefined]);
  });

  it('sends thinking back as thought parts with their signatures, and a bare signature on the text after it', () => {
    const body = convert({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me count.', signature: 'c2lnLTE=' },
            { type: 'redacted_thinking', data: 'anthropic-only' },
            { type: 'thinking', thinking: '', signature: 'c2lnLTI=' },
            { type: 'text', text: 'Eight.' },
          ],
        },
        { role: 'assistant', content: 'Plain.', reasoning_content: 'DeepSeek reasoning' },
      ],
    });
    expect(body.contents).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Let me count.', thought: true, thoughtSignature: 'c2lnLTE=' },
          { text: 'Eight.', thoughtSignature: 'c2lnLTI=' },
        ],
      },
      { role: 'model', parts: [{ text: 'DeepSeek reasoning', thought: true }, { text: 'Plain.' }] },
    ]);
  });
});

describe('options → generationConfig, tools and toolConfig', () => {
  it('maps sampling, length, stop, candidates, seed and penalties', () => {
    const body = convert({
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      n: 2,
      max_tokens: 100,
      max_completion_tokens: 200,
      stop: 'END',
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'someone',
      parallel_tool_calls: false,
    });
    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      candidateCount: 2,
      maxOutputTokens: 200,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
    });
    expect(convert({}).generationConfig).toBeUndefined();
    expect(convert({ n: 1, stop: [] }).generationConfig).toBeUndefined();
  });

  it('asks for JSON, with the schema as responseJsonSchema', () => {
    expect(convert({ response_format: { type: 'json_object' } }).generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { name: { type: 'string', default: 'x' } },
      required: ['name'],
      additionalProperties: false,
    };
    expect(
      convert({
        response_format: { type: 'json_schema', json_schema: { name: 'person', schema, strict: true } },
      }).generationConfig,
    ).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
    });
  });

  it('declares function tools with cleaned JSON Schema, passes Gemini tools, drops other vendors’ tools', () => {
    const body = convert({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string', minLength: 1 },
                days: { type: 'integer', exclusiveMinimum: 0 },
              },
              required: ['city'],
            },
            strict: true,
          },
        },
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
        { type: 'google_search', vendor_protocol: 'gemini', definition: { googleSearch: {} } },
        {
          type: 'web_search_20250305',
          vendor_protocol: 'anthropic-messages',
          definition: { name: 'web_search' },
        },
      ],
      tool_choice: 'required',
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            parametersJsonSchema: {
              type: 'object',
              properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 0 } },
              required: ['city'],
            },
          },
          { name: 'now' },
        ],
      },
      { googleSearch: {} },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });

  it('maps each tool_choice, and none without function declarations', () => {
    const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'f' } }];
    const modeOf = (tool_choice: ChatRequest['tool_choice']) =>
      convert({ tools, tool_choice }).toolConfig?.functionCallingConfig;
    expect(modeOf('none')).toEqual({ mode: 'NONE' });
    expect(modeOf('auto')).toEqual({ mode: 'AUTO' });
    expect(modeOf({ type: 'function', function: { name: 'f' } })).toEqual({
      mode: 'ANY',
      allowedFunctionNames: ['f'],
    });
    expect(modeOf(undefined)).toBeUndefined();
    expect(convert({ tool_choice: 'required' }).toolConfig).toBeUndefined();
  });

  it('maps thinking budgets and reasoning effort, by budget on 2.x and by level on Gemini 3', () => {
    const thinkingOf = (fields: Partial<ChatRequest>, model: string) =>
      convert(fields, model).generationConfig?.thinkingConfig;
    expect(thinkingOf({ thinking: { type: 'enabled', budget_tokens: 2048 } }, 'gemini-2.5-pro')).toEqual({
      thinkingBudget: 2048,
      includeThoughts: true,
    });
    expect(thinkingOf({ thinking: { type: 'disabled' } }, 'gemini-2.5-flash')).toEqual({ thinkingBudget: 0 });
    expect(thinkingOf({ thinking: { type: 'disabled' } }, 'gemini-3-pro-preview')).toEqual({
      thinkingLevel: 'LOW',
    });
    expect(thinkingOf({ reasoning_effort: 'medium' }, 'gemini-2.5-flash')).toEqual({
      thinkingBudget: 8192,
      includeThoughts: true,
    });
    expect(thinkingOf({ reasoning_effort: 'high' }, 'gemini-2.5-flash')).toEqual({
      thinkingBudget: 24576,
      includeThoughts: true,
    });
    expect(thinkingOf({ reasoning_effort: 'minimal' }, 'gemini-3-flash-preview')).toEqual({
      thinkingLevel: 'LOW',
      includeThoughts: true,
    });
    expect(thinkingOf({ reasoning_effort: 'medium' }, 'gemini-3-pro-preview')).toEqual({
      thinkingLevel: 'HIGH',
      includeThoughts: true,
    });
    expect(thinkingOf({}, 'gemini-2.5-flash')).toBeUndefined();
  });

  it('refuses logprobs and logit_bias, which are not translated', () => {
    expect(() => convert({ logprobs: true })).toThrow(/Gemini does not support logprobs/);
    expect(() => convert({ logit_bias: { '50256': -100 } })).toThrow(/Gemini does not support logit_bias/);
    expect(() => convert({ logprobs: false, logit_bias: {} })).not.toThrow();
  });
});
