import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError, UpstreamReportedError } from '../../canonical/translation';
import { readDashScopeResponse } from './convert-dashscope-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('a DashScope generation answer as the canonical completion', () => {
  it('reads the text, the finish reason and the usage', () => {
    const { completion, usage } = readDashScopeResponse(fixture('generation-text.json'));
    expect(completion).toMatchObject({
      id: 'a6a1d2e0-7c4f-9d8e-b3b1-8f3e5c6d7a21',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: '我是阿里云开发的一款超大规模语言模型，我叫通义千问。' },
        },
      ],
      usage: { prompt_tokens: 22, completion_tokens: 17, total_tokens: 39 },
    });
    expect(usage).toEqual({ promptTokens: 22, completionTokens: 17 });
  });

  it('reads tool calls', () => {
    const { completion } = readDashScopeResponse(fixture('generation-tool-calls.json'));
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [
          {
            id: 'call_1f6b4bd3d3024b2d8a5e1b',
            type: 'function',
            function: { name: 'get_current_weather', arguments: '{"location": "杭州市"}' },
          },
        ],
      },
    });
  });

  it('reads thinking, cache reads and reasoning tokens', () => {
    const { completion, usage } = readDashScopeResponse(fixture('generation-cache-and-reasoning-usage.json'));
    expect(completion.choices[0]!.message).toMatchObject({
      content: '1+1=2',
      reasoning_content: '用户问一加一。',
    });
    expect(usage).toEqual({
      promptTokens: 2100,
      completionTokens: 70,
      cacheReadTokens: 2048,
      reasoningTokens: 64,
    });
    expect(completion.usage).toMatchObject({
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 64 },
    });
  });

  it('reads the multimodal endpoint’s content parts as text', () => {
    const { completion, usage } = readDashScopeResponse(fixture('multimodal-generation-vl.json'));
    expect(completion.choices[0]!.message.content).toBe('这是一张在海滩上的女孩和狗的照片。');
    // 1,247 of the 1,271 prompt tokens are the image's (usage.image_tokens).
    expect(usage).toEqual({ promptTokens: 1271, completionTokens: 16, imageInputTokens: 1247 });
  });

  it('throws an error object in a 2xx body with its kind, and refuses a cut answer', () => {
    expect(() => readDashScopeResponse(fixture('error-throttling-rate-quota.json'))).toThrow(
      UpstreamReportedError,
    );
    expect(() => readDashScopeResponse(Buffer.from('{"output":{"choices":['))).toThrow(UpstreamFormatError);
    expect(() => readDashScopeResponse(Buffer.from('{"output":{}}'))).toThrow(UpstreamFormatError);
  });
});
