import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ChatMessage, ChatRequest } from '../../canonical/chat';
import type { AnthropicMessagesRequest } from './anthropic-wire-types';
import { convertToAnthropicRequest } from './convert-to-anthropic-request';

const convert = (request: Partial<ChatRequest>, upstreamModel = 'claude-sonnet-4-5-20250929') =>
  convertToAnthropicRequest({
    channel: { baseUrl: 'https://api.anthropic.com', key: 'sk-ant-channel', other: '', config: {} },
    request: { model: 'claude', messages: [{ role: 'user', content: 'Hi' }], ...request },
    upstreamModel,
    isStream: false,
    clientHeaders: {},
  });

describe('max_tokens, thinking and sampling for each Claude generation', () => {
  it('sends a default max_tokens, since Anthropic requires one, and the client limit when there is one', () => {
    expect(convert({}).max_tokens).toBe(8192);
    expect(convert({}, 'claude-3-haiku-20240307').max_tokens).toBe(4096);
    expect(convert({ max_tokens: 300 }).max_tokens).toBe(300);
    expect(convert({ max_tokens: 300, max_completion_tokens: 500 }).max_tokens).toBe(500);
  });

  it('turns reasoning_effort into a thinking budget that fits in max_tokens', () => {
    const limits = (request: Partial<ChatRequest>) => {
      const body: AnthropicMessagesRequest = convert(request);
      return { max_tokens: body.max_tokens, thinking: body.thinking };
    };
    expect(limits({ reasoning_effort: 'medium' })).toEqual({
      max_tokens: 8192 + 4096,
      thinking: { type: 'enabled', budget_tokens: 4096 },
    });
    expect(limits({ reasoning_effort: 'high', max_completion_tokens: 4000 })).toEqual({
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 4000 - 1024 },
    });
    expect(limits({ reasoning_effort: 'low', max_completion_tokens: 1500 })).toEqual({ max_tokens: 1500 });
    expect(limits({ reasoning_effort: 'minimal' })).toEqual({ max_tokens: 8192 });
    expect(limits({ reasoning_effort: 'high', tool_choice: 'required' })).toEqual({ max_tokens: 8192 });
    expect(limits({ thinking: { type: 'enabled', budget_tokens: 10000 } })).toEqual({
      max_tokens: 8192 + 10000,
      thinking: { type: 'enabled', budget_tokens: 10000 },
    });
    expect(limits({ thinking: { type: 'disabled' }, reasoning_effort: 'high' })).toEqual({
      max_tokens: 8192,
    });
  });

  it('leaves thinking out in a tool loop whose assistant turn carries no signed thinking', () => {
    const loop = (content: AssistantMessage['content']): ChatMessage[] => [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ];
    expect(convert({ reasoning_effort: 'high', messages: loop(null) }).thinking).toBeUndefined();
    expect(
      convert({ thinking: { type: 'enabled', budget_tokens: 2048 }, messages: loop('Checking.') }).thinking,
    ).toBeUndefined();
    const signed = loop([{ type: 'thinking', thinking: 'I should call w.', signature: 'sig' }]);
    expect(convert({ reasoning_effort: 'high', messages: signed }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 16384,
    });
    const nextTurn: ChatMessage[] = [
      ...loop(null),
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'Rome?' },
    ];
    expect(convert({ reasoning_effort: 'high', messages: nextTurn }).thinking).toBeDefined();
  });

  it('asks models with adaptive thinking for an effort instead of a budget, and older models for no thinking', () => {
    const body = (request: Partial<ChatRequest>, model: string) => {
      const { max_tokens, thinking, output_config } = convert(request, model);
      return { max_tokens, thinking, output_config };
    };
    expect(body({ reasoning_effort: 'high' }, 'claude-opus-4-7')).toEqual({
      max_tokens: 8192 + 16384,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
    });
    expect(body({ reasoning_effort: 'low', max_completion_tokens: 2000 }, 'claude-sonnet-4-6')).toEqual({
      max_tokens: 2000,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect(body({ thinking: { type: 'enabled', budget_tokens: 5000 } }, 'claude-sonnet-4-6')).toEqual({
      max_tokens: 8192 + 5000,
      thinking: { type: 'enabled', budget_tokens: 5000 },
      output_config: undefined,
    });
    expect(body({ thinking: { type: 'enabled', budget_tokens: 5000 } }, 'claude-opus-4-7')).toEqual({
      max_tokens: 8192 + 5000,
      thinking: { type: 'adaptive' },
      output_config: undefined,
    });
    expect(body({ reasoning_effort: 'high' }, 'claude-3-5-sonnet-20241022')).toEqual({
      max_tokens: 8192,
      thinking: undefined,
      output_config: undefined,
    });
  });

  it('sends sampling options as far as the model takes them', () => {
    expect(convert({ temperature: 0.3, top_p: 0.9, top_k: 5 }, 'claude-sonnet-4-20250514')).toMatchObject({
      temperature: 0.3,
      top_p: 0.9,
      top_k: 5,
    });
    const oneSampler = convert({ temperature: 0.3, top_p: 0.9 }, 'claude-sonnet-4-5-20250929');
    expect(oneSampler.temperature).toBe(0.3);
    expect(oneSampler).not.toHaveProperty('top_p');
    expect(convert({ top_p: 0.9 }, 'claude-haiku-4-5').top_p).toBe(0.9);
    const thinking = convert({ reasoning_effort: 'low', temperature: 0.3, top_p: 0.97, top_k: 5 });
    expect(thinking).toMatchObject({ top_p: 0.97 });
    expect(thinking).not.toHaveProperty('temperature');
    expect(thinking).not.toHaveProperty('top_k');
    expect(convert({ reasoning_effort: 'low', top_p: 0.5 })).not.toHaveProperty('top_p');
    const noSampling = convert({ temperature: 0.3, top_p: 0.9, top_k: 5 }, 'claude-opus-4-7');
    expect(Object.keys(noSampling)).not.toContain('temperature');
    expect(Object.keys(noSampling)).not.toContain('top_p');
    expect(Object.keys(noSampling)).not.toContain('top_k');
  });
});
