import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { readBedrockResponse } from './convert-from-bedrock-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Converse answers', () => {
  it('reads a text answer', () => {
    const { completion, usage } = readBedrockResponse(fixture('converse-text.json'));
    expect(completion).toMatchObject({
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello! How can I help you today?' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
    });
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 10 });
  });

  it('reads tool calls with their arguments as JSON text', () => {
    const { completion } = readBedrockResponse(fixture('converse-tool-use.json'));
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: "I'll look up the most popular song on WZPZ.",
        tool_calls: [
          {
            id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
            type: 'function',
            function: { name: 'top_song', arguments: '{"sign":"WZPZ"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('bills cache reads as part of the prompt', () => {
    const { completion, usage } = readBedrockResponse(fixture('converse-cache-usage.json'));
    expect(usage).toEqual({ promptTokens: 3202, completionTokens: 90, cacheReadTokens: 3188 });
    expect(completion.usage).toEqual({
      prompt_tokens: 3202,
      completion_tokens: 90,
      total_tokens: 3292,
      prompt_tokens_details: { cached_tokens: 3188 },
    });
  });

  it('keeps thinking with its signature and redacted thinking as parts, before the text', () => {
    const { completion } = readBedrockResponse(fixture('converse-thinking-signed.json'));
    expect(completion.choices[0]!.message.content).toEqual([
      {
        type: 'thinking',
        thinking: '27 * 453: 27 * 400 = 10800, 27 * 53 = 1431, total 12231.',
        signature: 'ErUBCkYIBxgCIkCHwqtx5Zf8yqA1Iww0BAp0c2e9EXAMPLE',
      },
      { type: 'redacted_thinking', data: 'RXhhbXBsZSByZWRhY3RlZCB0aGlua2luZw==' },
      { type: 'text', text: '27 * 453 = 12,231.' },
    ]);
  });

  it('ends a guardrail intervention as content_filter', () => {
    const { completion } = readBedrockResponse(fixture('converse-guardrail-intervened.json'));
    expect(completion.choices[0]!.finish_reason).toBe('content_filter');
  });

  it.each([
    ['cut JSON', '{"output":{"message":{"content":[{"text":"Hel'],
    ['another shape', '{"choices":[]}'],
    ['nothing', ''],
  ])('refuses %s as malformed', (_name, body) => {
    expect(() => readBedrockResponse(Buffer.from(body))).toThrow(UpstreamFormatError);
  });

  it('has null usage when the answer reports none', () => {
    const answer = { output: { message: { role: 'assistant', content: [] } }, stopReason: 'end_turn' };
    const { completion, usage } = readBedrockResponse(Buffer.from(JSON.stringify(answer)));
    expect(usage).toBeNull();
    expect(completion.usage).toBeUndefined();
    expect(completion.choices[0]!.message.content).toBeNull();
  });
});
