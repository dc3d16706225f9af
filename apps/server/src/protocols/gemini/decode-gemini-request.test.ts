import { describe, expect, it } from 'vitest';
import { convertToGeminiRequest } from '../../providers/gemini/convert-to-gemini-request';
import { RelayError } from '../../relay/relay-error';
import { decodeGeminiRequest } from './decode-gemini-request';
import { decodeGeminiCountTokensRequest } from './decode-gemini-count-tokens';

const target = { model: 'gemini-2.5-flash', isStream: false };
const hello = [{ role: 'user', parts: [{ text: 'hi' }] }];

function refusal(body: Record<string, unknown>): { param: string | null; message: string; status: number } {
  try {
    decodeGeminiRequest(body, target);
  } catch (error) {
    if (error instanceof RelayError)
      return { param: error.param, message: error.message, status: error.statusCode };
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('decoding a Gemini generateContent request', () => {
  it('takes the model and streaming from the URL, the system instruction and sampling from the body', () => {
    const request = decodeGeminiRequest(
      {
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ parts: [{ text: 'Say hello' }] }],
        generationConfig: {
          maxOutputTokens: 100,
          temperature: 0.4,
          topP: 0.9,
          topK: 40,
          candidateCount: 2,
          stopSequences: ['END'],
          seed: 7,
          presencePenalty: 0.5,
          frequencyPenalty: 0.25,
          responseModalities: ['TEXT'],
        },
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      },
      { model: 'gemini-2.5-pro', isStream: true },
    );
    expect(request).toEqual({
      model: 'gemini-2.5-pro',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      temperature: 0.4,
      top_p: 0.9,
      top_k: 40,
      n: 2,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
  });

  it('reads media parts as the canonical part their media type calls for', () => {
    const request = decodeGeminiRequest(
      {
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'What is in these?' },
              { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
              { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
              { inlineData: { mimeType: 'application/pdf', data: 'JVBER' } },
              { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat' } },
              { fileData: { fileUri: 'https://example.com/paper.pdf' } },
            ],
          },
        ],
      },
      target,
    );
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
          { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat' } },
          { type: 'file', file: { file_id: 'https://example.com/paper.pdf', filename: 'paper.pdf' } },
        ],
      },
    ]);
  });

  it('turns a tool loop into tool calls and tool messages, matched by id or else by name', () => {
    const request = decodeGeminiRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
          {
            role: 'model',
            parts: [
              { text: 'Let me look.', thought: true },
              { thought: true, thoughtSignature: 'c2lnbmVk' },
              {
                functionCall: { name: 'get_weather', args: { city: 'Paris' } },
                thoughtSignature: 'c2ln+/==',
              },
              { functionCall: { id: 'g2', name: 'get_weather', args: { city: 'Rome' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'g2', name: 'get_weather', response: { output: '25°C' } } },
              { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
              { text: 'Thanks' },
            ],
          },
          {
            role: 'model',
            parts: [{ functionCall: { name: 'lookup', args: {} } }],
          },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'lookup', response: { error: 'not found' } } }],
          },
        ],
        tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'lookup' }] }],
      },
      target,
    );
    const paris = 'call_1_0__thought__c2ln-_';
    expect(request.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'Let me look.', signature: 'c2lnbmVk' }],
        tool_calls: [
          { id: paris, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'g2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'g2', content: '25°C' },
      { role: 'tool', tool_call_id: paris, content: '{"temp":21}' },
      { role: 'user', content: 'Thanks' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_3_0', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_3_0', content: 'not found', is_error: true },
    ]);
  });

  it('gives the Gemini translator back the turn it came from, thought signatures included', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Thinking.', thought: true, thoughtSignature: 'AAAA' },
          { text: 'Checking.', thoughtSignature: 'BBBB' },
          {
            functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: 'CCCC',
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'get_weather', response: { temp: 21 } } }],
      },
    ];
    const request = decodeGeminiRequest(
      { contents, tools: [{ functionDeclarations: [{ name: 'get_weather' }] }] },
      target,
    );
    expect(convertToGeminiRequest(request, 'gemini-3-pro-preview').contents).toEqual(contents);
  });

  it('reads tools, Google’s own tools, tool config, JSON output and thinking', () => {
    const request = decodeGeminiRequest(
      {
        contents: hello,
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: {
                  type: 'OBJECT',
                  properties: {
                    city: { type: 'STRING', nullable: true },
                    days: { type: 'INTEGER', maxItems: '5' },
                  },
                  required: ['city'],
                  propertyOrdering: ['city', 'days'],
                },
              },
            ],
          },
          { googleSearch: {}, codeExecution: {} },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
        generationConfig: {
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'object', properties: { answer: { type: 'string' } } },
          thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
        },
      },
      target,
    );
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: {
            type: 'object',
            properties: { city: { type: ['string', 'null'] }, days: { type: 'integer', maxItems: 5 } },
            required: ['city'],
          },
        },
      },
      { type: 'googleSearch', vendor_protocol: 'gemini', definition: { googleSearch: {} } },
      { type: 'codeExecution', vendor_protocol: 'gemini', definition: { codeExecution: {} } },
    ]);
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: { type: 'object', properties: { answer: { type: 'string' } } },
      },
    });
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it.each([
    [{ thinkingBudget: 0 }, { thinking: { type: 'disabled' } }],
    [{ thinkingLevel: 'LOW' }, { reasoning_effort: 'low' }],
    [{ thinkingLevel: 'high' }, { reasoning_effort: 'high' }],
    [{ thinkingBudget: -1, includeThoughts: true }, {}],
  ])('reads thinkingConfig %j', (thinkingConfig, expected) => {
    const request = decodeGeminiRequest({ contents: hello, generationConfig: { thinkingConfig } }, target);
    expect({ thinking: request.thinking, reasoning_effort: request.reasoning_effort }).toEqual({
      thinking: undefined,
      reasoning_effort: undefined,
      ...expected,
    });
  });

  it.each([
    [{ mode: 'NONE' }, 'none'],
    [{ mode: 'AUTO' }, 'auto'],
    [{ mode: 'ANY' }, 'required'],
    [{ mode: 'ANY', allowedFunctionNames: ['a', 'b'] }, 'required'],
  ])('reads functionCallingConfig %j as %j', (functionCallingConfig, expected) => {
    const request = decodeGeminiRequest(
      {
        contents: hello,
        tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }] }],
        toolConfig: { functionCallingConfig },
      },
      target,
    );
    expect(request.tool_choice).toEqual(expected);
  });

  it('counts a whole generateContentRequest, or contents alone', () => {
    expect(decodeGeminiCountTokensRequest({ contents: hello }, 'm').messages).toEqual([
      { role: 'user', content: 'hi' },
    ]);
    const whole = decodeGeminiCountTokensRequest(
      {
        generateContentRequest: {
          model: 'models/m',
          contents: hello,
          systemInstruction: { parts: [{ text: 'Be brief.' }] },
        },
      },
      'm',
    );
    expect(whole.messages).toHaveLength(2);
  });

  it.each([
    [{}, 'contents', 'GenerateContentRequest.contents: contents is not specified'],
    [{ contents: [] }, 'contents', 'contents is not specified'],
    [{ contents: 'hi' }, 'contents', 'expected a list'],
    [{ contents: [{ parts: [{ text: 'a' }], role: 'system' }] }, 'contents[0].role', '"user" or "model"'],
    [{ contents: [{ role: 'user' }] }, 'contents[0].parts', 'parts is not specified'],
    [{ contents: [{ parts: [{ text: 3 }] }] }, 'contents[0].parts[0].text', 'expected a string'],
    [
      { contents: [{ parts: [{ inlineData: { data: 'x' } }] }] },
      'contents[0].parts[0].inlineData.mimeType',
      'expected a string',
    ],
    [
      { contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] },
      'contents[0].parts[0].functionCall.name',
      'expected a string',
    ],
    [
      { contents: hello, generationConfig: { temperature: 3 } },
      'generationConfig.temperature',
      'a number of at most 2',
    ],
    [
      { contents: hello, generationConfig: { maxOutputTokens: 1.5 } },
      'generationConfig.maxOutputTokens',
      'an integer',
    ],
    [
      { contents: hello, tools: [{ functionDeclarations: [{}] }] },
      'tools[0].functionDeclarations[0].name',
      'string',
    ],
    [
      { contents: hello, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
      'toolConfig.functionCallingConfig.mode',
      'AUTO, ANY, NONE',
    ],
    [{ contents: hello, systemInstruction: 'Be brief.' }, 'systemInstruction', 'expected an object'],
  ])('refuses %j with 400 naming %s', (body, param, words) => {
    const refused = refusal(body as Record<string, unknown>);
    expect(refused.status).toBe(400);
    expect(refused.param).toBe(param);
    expect(refused.message).toContain(words);
  });
});
