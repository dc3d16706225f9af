import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { convertGeminiResponse, readGeminiResponse } from './convert-gemini-response';
import { convertToGeminiRequest } from './convert-to-gemini-request';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('generateContent answers → chat completions', () => {
  it('reads a text answer with its id, model and usage', () => {
    const { completion, usage } = readGeminiResponse(fixture('generate-content-text.json'));
    expect(completion).toMatchObject({
      id: 'kLwcaJ6uB5Gm1dkP3fqT-Ak',
      object: 'chat.completion',
      model: 'gemini-2.0-flash',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'AI learns patterns from examples, then uses them to make predictions about new data.',
          },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 8, completion_tokens: 17, total_tokens: 25 },
    });
    expect(usage).toEqual({ promptTokens: 8, completionTokens: 17 });
  });

  it('reads parallel function calls as tool_calls with Gemini’s ids, the signature riding in the first', () => {
    const { completion, usage } = readGeminiResponse(fixture('generate-content-function-call.json'));
    const [choice] = completion.choices;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'm2vq8x1c__thought__CiQBcsjafH-9_Q3rG0nqYlX2w1pZk8sTbVqo0aJ4Lx6eFhW7dXE',
        type: 'function',
        function: { name: 'get_current_weather', arguments: '{"location":"Paris, France","unit":"celsius"}' },
      },
      {
        id: 'p7hz3k0n',
        type: 'function',
        function: { name: 'get_current_weather', arguments: '{"location":"London, UK"}' },
      },
    ]);
    expect(usage).toEqual({ promptTokens: 92, completionTokens: 122, reasoningTokens: 84 });
  });

  it('gives Gemini back the function calls it made, ids and signature in place, when the client replays them', () => {
    const answer = JSON.parse(fixture('generate-content-function-call.json').toString('utf8'));
    const { completion } = convertGeminiResponse(answer);
    const assistant = completion.choices[0].message;
    const replay = convertToGeminiRequest(
      {
        model: 'gemini-3-flash-preview',
        messages: [
          { role: 'user', content: 'Weather in Paris and London?' },
          assistant,
          ...assistant.tool_calls!.map((call) => ({
            role: 'tool' as const,
            tool_call_id: call.id,
            content: '{"temp":20}',
          })),
        ],
      },
      'gemini-3-flash-preview',
    );
    expect(replay.contents[1]).toEqual(answer.candidates[0].content);
    expect(replay.contents[2].parts.map((part) => part.functionResponse?.id)).toEqual([
      'm2vq8x1c',
      'p7hz3k0n',
    ]);
  });

  it('makes tool call ids unique to the answer when Gemini gives none', () => {
    const { completion } = convertGeminiResponse({
      responseId: 'resp-1',
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'a' } }, { functionCall: { name: 'b', args: {} } }],
          },
          finishReason: 'STOP',
        },
      ],
    });
    expect(
      completion.choices[0].message.tool_calls?.map((call) => [call.id, call.function.arguments]),
    ).toEqual([
      ['call_resp-1_0', '{}'],
      ['call_resp-1_1', '{}'],
    ]);
  });

  it('answers a blocked prompt as an empty message finished by content_filter, with the prompt billed', () => {
    const { completion, usage } = readGeminiResponse(fixture('generate-content-safety-block.json'));
    expect(completion.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(usage).toEqual({ promptTokens: 11, completionTokens: 0 });
  });

  it('reads a candidate stopped by safety as content_filter and a malformed call as stop', () => {
    const finish = (finishReason: string) =>
      convertGeminiResponse({ candidates: [{ finishReason, index: 0 }] }).completion.choices[0];
    expect(finish('SAFETY')).toMatchObject({ message: { content: '' }, finish_reason: 'content_filter' });
    expect(finish('MALFORMED_FUNCTION_CALL').finish_reason).toBe('stop');
    expect(finish('MAX_TOKENS').finish_reason).toBe('length');
  });

  it('keeps thought summaries as thinking with the signature Gemini put on the text after them', () => {
    const { completion, usage } = readGeminiResponse(fixture('generate-content-thinking-usage.json'));
    expect(completion.choices[0].message.content).toEqual([
      {
        type: 'thinking',
        thinking:
          '**Counting the primes**\n\nI list the primes below 20 and count them: 2, 3, 5, 7, 11, 13, 17, 19.\n',
        signature: 'EqsCCqgCAdHtim9+fX/2RJdQ3Wn0bq1e7Jm4oZ8sT3c5VxYkLq2uF6gH0pNwA1sD==',
      },
      { type: 'text', text: 'There are 8 prime numbers below 20.' },
    ]);
    expect(completion.usage).toEqual({
      prompt_tokens: 2076,
      completion_tokens: 323,
      total_tokens: 2399,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 312 },
    });
    expect(usage).toEqual({
      promptTokens: 2076,
      completionTokens: 323,
      cacheReadTokens: 2048,
      reasoningTokens: 312,
    });
  });

  it('joins text split across parts, keeps a signature without thinking, and orders candidates', () => {
    const { completion } = convertGeminiResponse({
      candidates: [
        { index: 1, content: { parts: [{ text: 'B' }] }, finishReason: 'STOP' },
        {
          index: 0,
          content: { parts: [{ text: 'A1 ', thoughtSignature: 'c2ln' }, { text: 'A2' }] },
          finishReason: 'STOP',
        },
      ],
    });
    expect(completion.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [
        0,
        [
          { type: 'thinking', thinking: '', signature: 'c2ln' },
          { type: 'text', text: 'A1 A2' },
        ],
      ],
      [1, 'B'],
    ]);
  });

  it('shows code Gemini executed as Markdown', () => {
    const { completion } = convertGeminiResponse({
      candidates: [
        {
          content: {
            parts: [
              { executableCode: { language: 'PYTHON', code: 'print(6*7)' } },
              { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
              { text: 'The answer is 42.' },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    });
    const message = completion.choices[0].message as AssistantMessage;
    expect(message.content).toBe('\n```python\nprint(6*7)\n```\n\n```output\n42\n\n```\nThe answer is 42.');
  });

  it('refuses answers that are not what Gemini documents', () => {
    expect(() => readGeminiResponse(Buffer.from('{"candidates":[{"content":{"parts":[{"te'))).toThrow(
      UpstreamFormatError,
    );
    expect(() => readGeminiResponse(Buffer.from('[]'))).toThrow(UpstreamFormatError);
    expect(() => readGeminiResponse(Buffer.from('{"usageMetadata":{}}'))).toThrow(/neither candidates/);
    expect(() => readGeminiResponse(Buffer.from('{"candidates":{"0":{}}}'))).toThrow(/not a list/);
    expect(() =>
      readGeminiResponse(Buffer.from('{"candidates":[{"content":{"parts":[{"functionCall":{}}]}}]}')),
    ).toThrow(/function call without a name/);
  });
});
