import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatRequest } from '../../canonical/chat';
import { UnsupportedOptionError, UpstreamFormatError } from '../../canonical/translation';
import { createOpenAICompatibleAdapter, prefixedLayout } from './openai-compatible-adapter';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));
const { translator } = createOpenAICompatibleAdapter(prefixedLayout('openai', '/v1'));
const channel = { baseUrl: 'https://api.example.com', key: 'sk-channel', other: '', config: {} };

async function build(request: ChatRequest, isStream = false) {
  const upstream = await translator.buildRequest({
    channel,
    request,
    upstreamModel: 'gpt-4o-2024-08-06',
    isStream,
    clientHeaders: {},
  });
  return { ...upstream, json: JSON.parse(String(upstream.body)) as Record<string, unknown> };
}

describe('canonical requests for an OpenAI-compatible upstream', () => {
  it('keeps OpenAI fields and drops what only other protocols have', async () => {
    const upstream = await build({
      model: 'client-name',
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        },
        { role: 'user', content: 'What is 6 × 7?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'six sevens', signature: 'sig' },
            { type: 'text', text: '42' },
          ],
        },
        { role: 'user', content: 'Sure?' },
      ],
      max_tokens: 64,
      temperature: 0.5,
      top_k: 40,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      metadata: { user_id: 'from-anthropic' },
      tools: [
        {
          type: 'function',
          function: { name: 'calc', parameters: { type: 'object' } },
          cache_control: { type: 'ephemeral' },
        },
        {
          type: 'web_search_20250305',
          vendor_protocol: 'anthropic-messages',
          definition: { name: 'web_search' },
        },
      ],
      tool_choice: 'auto',
    });
    expect(upstream.url).toBe('https://api.example.com/v1/chat/completions');
    expect(upstream.headers).toEqual({
      authorization: 'Bearer sk-channel',
      'content-type': 'application/json',
    });
    expect(upstream.json).toEqual({
      model: 'gpt-4o-2024-08-06',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: 'What is 6 × 7?' },
        { role: 'assistant', content: '42' },
        { role: 'user', content: 'Sure?' },
      ],
      max_tokens: 64,
      temperature: 0.5,
      tools: [{ type: 'function', function: { name: 'calc', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
    });
  });

  it('asks for stream usage and leaves tool_choice out when no tool is left', async () => {
    const upstream = await build(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'google_search', vendor_protocol: 'gemini', definition: {} }],
        tool_choice: 'required',
      },
      true,
    );
    expect(upstream.json).toEqual({
      model: 'gpt-4o-2024-08-06',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('refuses images in a tool result, which OpenAI does not take', async () => {
    await expect(
      build({
        model: 'm',
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'shot', arguments: '{}' } }],
          },
          {
            role: 'tool',
            tool_call_id: 'c',
            content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }],
          },
        ],
      }),
    ).rejects.toThrow(UnsupportedOptionError);
  });
});

describe('OpenAI-compatible answers as canonical ones', () => {
  it('reads a completion and its usage with the cache and reasoning details', () => {
    const { completion, usage } = translator.readResponse(fixture('chat-completion-with-usage.json'));
    expect(completion.choices[0].message.content).toBe('Hello! How can I assist you today?');
    expect(usage).toEqual({ promptTokens: 19, completionTokens: 10 });
  });

  it.each([
    ['a cut answer', '{"id":"x","choices":[{"mess'],
    ['an answer without choices', '{"id":"x"}'],
    ['an array', '[1]'],
  ])('refuses %s as malformed', (_case, body) => {
    expect(() => translator.readResponse(Buffer.from(body))).toThrow(UpstreamFormatError);
  });

  function decode(bytes: Buffer, size: number) {
    const decoder = translator.createStreamDecoder();
    const chunks: ChatChunk[] = [];
    for (let offset = 0; offset < bytes.length; offset += size) {
      chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
    }
    chunks.push(...decoder.end());
    return { chunks, usage: decoder.usage() };
  }

  it.each([1, 13, 100_000])('decodes a stream cut into pieces of %i bytes', (size) => {
    const { chunks, usage } = decode(fixture('chat-stream-reasoning-usage-on-last-choice.sse'), size);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Forty-two');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('')).toBe(
      'Let me think',
    );
    expect(usage).toEqual({ promptTokens: 13, completionTokens: 35, reasoningTokens: 30 });
  });

  it('reads a whole JSON answer sent to a stream request as the chunks of that answer', () => {
    const { chunks, usage } = decode(fixture('chat-completion-with-usage.json'), 7);
    expect(chunks[0].choices[0].delta).toMatchObject({
      role: 'assistant',
      content: 'Hello! How can I assist you today?',
    });
    expect(chunks[0].choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 19 } });
    expect(usage).toEqual({ promptTokens: 19, completionTokens: 10 });
  });

  it('refuses a stream event that is not JSON', () => {
    expect(() => decode(Buffer.from('data: {"choices":[\n\n'), 5)).toThrow(UpstreamFormatError);
  });
});
