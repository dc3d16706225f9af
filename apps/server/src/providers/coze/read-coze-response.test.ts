import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CozeReportedError } from './coze-reported-error';
import { readCozeResponse } from './read-coze-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('a non-stream client’s answer collected from Coze’s stream', () => {
  it('is one completion with the whole answer, stop and the chat usage', () => {
    const { completion, usage } = readCozeResponse(fixture('stream-answer.sse'));
    expect(completion).toMatchObject({
      id: '7382159487131697202',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: '2024 年 10 月 1 日是星期二。' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 5878, completion_tokens: 766, total_tokens: 6644 },
    });
    expect(usage).toEqual({ promptTokens: 5878, completionTokens: 766 });
  });

  it('throws the error of a failed chat or a refused call', () => {
    expect(() => readCozeResponse(fixture('stream-chat-failed.sse'))).toThrow(CozeReportedError);
    expect(() => readCozeResponse(fixture('refused-authentication.json'))).toThrow(
      'authentication is invalid',
    );
  });
});
