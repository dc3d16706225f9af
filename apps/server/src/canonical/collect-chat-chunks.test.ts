import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatChunkChoice } from './chat';
import { collectChatChunks } from './collect-chat-chunks';
import { completionToChunks } from './completion-text';

const head = { id: 'chat-1', object: 'chat.completion.chunk' as const, created: 1700000000, model: 'bot' };
const chunk = (choices: ChatChunkChoice[], usage?: ChatChunk['usage']): ChatChunk => ({
  ...head,
  choices,
  usage,
});
const delta = (
  fields: ChatChunkChoice['delta'],
  finish: ChatChunkChoice['finish_reason'] = null,
): ChatChunkChoice => ({
  index: 0,
  delta: fields,
  finish_reason: finish,
});

describe('collecting a stream into one answer', () => {
  it('joins text and reasoning, keeps the last finish reason and the decoder’s usage', () => {
    const { completion, usage } = collectChatChunks(
      [
        chunk([delta({ role: 'assistant', content: '' })]),
        chunk([delta({ reasoning_content: 'Think' })]),
        chunk([delta({ content: 'Hel' })]),
        chunk([delta({ content: 'lo' })]),
        chunk([delta({}, 'stop')]),
      ],
      { promptTokens: 3, completionTokens: 2 },
    );
    expect(completion).toEqual({
      id: 'chat-1',
      object: 'chat.completion',
      created: 1700000000,
      model: 'bot',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello', reasoning_content: 'Think' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(usage).toEqual({ promptTokens: 3, completionTokens: 2 });
  });

  it('assembles tool calls by index, and is the inverse of completionToChunks', () => {
    const streamed = collectChatChunks(
      [
        chunk([
          delta({
            tool_calls: [
              { index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } },
            ],
          }),
        ]),
        chunk([
          delta({
            tool_calls: [
              { index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          }),
        ]),
        chunk([delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] })]),
        chunk([delta({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] })]),
        chunk([delta({}, 'tool_calls')]),
        chunk([], { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }),
      ],
      null,
    );
    expect(streamed.completion.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
        { id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } },
      ],
    });
    expect(streamed.completion.usage).toEqual({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });
    expect(streamed.usage).toBeNull();
    expect(collectChatChunks(completionToChunks(streamed.completion), null).completion).toEqual(
      streamed.completion,
    );
  });
});
