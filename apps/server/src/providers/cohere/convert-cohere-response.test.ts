import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { CohereReportedError } from './cohere-reported-error';
import { readCohereResponse } from './convert-cohere-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Cohere chat answer → canonical completion', () => {
  it('reads the text, the finish reason and the billed usage', () => {
    const { completion, usage } = readCohereResponse(fixture('chat-text.json'));
    expect(completion.id).toBe('c14c80c3-18eb-4519-9460-6c92edd8cfb4');
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content:
            'LLMs stand for Large Language Models, which are a type of neural network model specialized in processing and generating human language.',
        },
        finish_reason: 'stop',
      },
    ]);
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 418 });
    expect(completion.usage).toEqual({ prompt_tokens: 5, completion_tokens: 418, total_tokens: 423 });
  });

  it('gives the tool plan as the text before the tool calls', () => {
    const { completion } = readCohereResponse(fixture('chat-tool-call.json'));
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: 'I will search for the weather in Toronto.',
        tool_calls: [
          {
            id: 'get_weather_1byjy32y4hvq',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('passes thinking as reasoning_content, apart from the answer', () => {
    const { message } = readCohereResponse(fixture('chat-thinking.json')).completion.choices[0];
    expect(message).toEqual({
      role: 'assistant',
      content: '17 × 23 = 391.',
      reasoning_content: 'The user asks for 17 × 23. 17 × 23 = 391.',
    });
  });

  it('refuses an ERROR finish as a reported server failure, and a body that is not a chat answer', () => {
    expect(() => readCohereResponse(fixture('chat-finish-error.json'))).toThrow(CohereReportedError);
    try {
      readCohereResponse(fixture('chat-finish-error.json'));
    } catch (error) {
      expect((error as CohereReportedError).details).toMatchObject({ type: 'ERROR', kind: 'server' });
    }
    expect(() => readCohereResponse(Buffer.from('{"id":"x"'))).toThrow(UpstreamFormatError);
    expect(() => readCohereResponse(Buffer.from('{"id":"x"}'))).toThrow('without a message');
  });
});
