import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError, UpstreamReportedError } from '../../canonical/translation';
import { readTencentResponse } from './convert-tencent-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('a ChatCompletions answer as the canonical completion', () => {
  it('reads the text, the finish reason and the usage', () => {
    const { completion, usage } = readTencentResponse(fixture('chat-text.json'));
    expect(completion).toMatchObject({
      id: 'e2a0e1f1-9c1a-4b4a-9e5c-1e0b7d1f2a3c',
      created: 1715154573,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: '你好！有什么我可以帮助你的吗？' },
          finish_reason: 'stop',
        },
      ],
    });
    expect(usage).toEqual({ promptTokens: 3, completionTokens: 14 });
  });

  it('reads tool calls with their ids', () => {
    const { completion } = readTencentResponse(fixture('chat-tool-calls.json'));
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: '使用get_current_weather工具查询北京的天气。',
        tool_calls: [
          {
            id: 'call_cp7bm1uu6mnkq4p9gd0g',
            type: 'function',
            function: { name: 'get_current_weather', arguments: '{"location":"北京"}' },
          },
        ],
      },
    });
  });

  it('reads an answer the safety review stopped as content_filter', () => {
    expect(readTencentResponse(fixture('chat-sensitive.json')).completion.choices[0]!.finish_reason).toBe(
      'content_filter',
    );
  });

  it('throws the Response.Error that comes with HTTP 200, with its kind', () => {
    const read = () => readTencentResponse(fixture('error-signature-failure.json'));
    expect(read).toThrow(UpstreamReportedError);
    expect(read).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ kind: 'authentication', code: 'AuthFailure.SignatureFailure' }),
      }),
    );
  });

  it.each(['{"Response":{"Choices":[', '{"Response":{"RequestId":"x"}}', '{}'])(
    'refuses %j as malformed',
    (text) => {
      expect(() => readTencentResponse(Buffer.from(text))).toThrow(UpstreamFormatError);
    },
  );
});
