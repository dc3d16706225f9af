import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError, UpstreamReportedError } from '../../canonical/translation';
import { readBaiduResponse } from './convert-baidu-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('an ERNIE answer as the canonical completion', () => {
  it('reads the text, the finish reason and the usage', () => {
    const { completion, usage } = readBaiduResponse(fixture('chat-text.json'));
    expect(completion).toMatchObject({
      id: 'as-bcmt5ct4iy',
      created: 1680167072,
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 46, total_tokens: 47 },
    });
    expect(completion.choices[0]!.message.content).toMatch(/^您好，我是文心一言/);
    expect(usage).toEqual({ promptTokens: 1, completionTokens: 46 });
  });

  it('reads a function call as a tool call, its thoughts as the text', () => {
    const { completion } = readBaiduResponse(fixture('chat-function-call.json'));
    const [choice] = completion.choices;
    expect(choice!.finish_reason).toBe('tool_calls');
    expect(choice!.message.content).toBe('用户想知道深圳今天的天气，我需要调用天气查询工具。');
    expect(choice!.message.tool_calls).toEqual([
      {
        id: 'call_as-cxbmvnyv1d',
        type: 'function',
        function: { name: 'get_current_weather', arguments: '{"location":"深圳","unit":"摄氏度"}' },
      },
    ]);
  });

  it('reads an answer cut at max_output_tokens as length', () => {
    expect(readBaiduResponse(fixture('chat-length.json')).completion.choices[0]!.finish_reason).toBe(
      'length',
    );
  });

  it('throws the error Baidu answers with HTTP 200, with its kind', () => {
    const read = () => readBaiduResponse(fixture('error-access-token-expired.json'));
    expect(read).toThrow(UpstreamReportedError);
    expect(read).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ kind: 'authentication', code: '111' }) }),
    );
  });

  it('reads the OpenAI-shaped answer of the v2 API', () => {
    const body = Buffer.from(
      JSON.stringify({
        id: 'as-v2',
        object: 'chat.completion',
        created: 1,
        model: 'ernie-4.0-8k',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      }),
    );
    const { completion, usage } = readBaiduResponse(body);
    expect(completion.choices[0]!.message.content).toBe('Hi');
    expect(usage).toEqual({ promptTokens: 3, completionTokens: 1 });
  });

  it.each(['{"id":"as-1","result":"cut', '{"id":"as-1"}'])('refuses %j as malformed', (text) => {
    expect(() => readBaiduResponse(Buffer.from(text))).toThrow(UpstreamFormatError);
  });
});
