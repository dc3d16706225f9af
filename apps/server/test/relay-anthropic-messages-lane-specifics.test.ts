import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { startOpenAIUpstream } from './support/openai-upstream';
import {
  CLAUDE,
  GPT,
  anthropic,
  kit,
  lastLog,
  newClient,
  openAI,
  useAnthropicMessagesLanes,
} from './support/anthropic-messages-lanes';

/**
 * POST /v1/messages end to end with `@anthropic-ai/sdk`: what only one of the lanes does (see
 * support/anthropic-messages-lanes). The pass-through lane keeps the client's bytes and Anthropic's headers;
 * the translated lane shows reasoning as thinking, drops what an OpenAI channel cannot take, and retries
 * across protocols. What both lanes do alike is in relay-anthropic-messages.test.ts.
 */
useAnthropicMessagesLanes();

describe('Anthropic clients: what only the pass-through lane keeps', () => {
  it('brings a cache_control block, unknown fields and a server tool to the Anthropic channel byte for byte', async () => {
    const { client, sent } = await newClient();
    anthropic.behaviour = {
      usage: {
        input_tokens: 5,
        output_tokens: 3,
        cache_creation_input_tokens: 1000,
        cache_read_input_tokens: 2000,
      },
    };
    const message = await client.messages.create({
      model: CLAUDE,
      max_tokens: 100,
      system: [
        {
          type: 'text',
          text: 'A long, cached system prompt.',
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      ],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Look it up', cache_control: { type: 'ephemeral' } }],
        },
      ],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
      // A field newer than this gateway, as Claude Code sends them.
      ...({ context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } } as object),
    });
    expect(anthropic.received[0].body.toString('utf8')).toBe(sent[0].body);
    expect(sent[0].body).toContain('"cache_control":{"type":"ephemeral","ttl":"1h"}');
    expect(sent[0].body).toContain('context_management');
    expect(message.usage).toMatchObject({
      input_tokens: 5,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 2000,
    });
    const log = await lastLog();
    expect(log).toMatchObject({ prompt_tokens: 3005, completion_tokens: 3 });
  });

  it('forwards anthropic-beta and anthropic-version to the Anthropic channel, not to an OpenAI one', async () => {
    const { client } = await newClient();
    const betas = ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'];
    await client.beta.messages.create({
      model: CLAUDE,
      max_tokens: 10,
      betas,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(anthropic.received[0].headers['anthropic-beta']).toBe(betas.join(','));
    expect(anthropic.received[0].headers['anthropic-version']).toBe('2026-10-21');
    expect(anthropic.received[0].headers['x-api-key']).toBe(anthropic.apiKey);
    expect(anthropic.received[0].headers.authorization).toBeUndefined();
    await client.beta.messages.create({
      model: GPT,
      max_tokens: 10,
      betas,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(openAI.received[0].headers['anthropic-beta']).toBeUndefined();
  });

  it('passes thinking with its signature back to the Anthropic channel unchanged', async () => {
    const { client } = await newClient();
    const question = { role: 'user' as const, content: 'Hello?' };
    const first = await client.messages.create({
      model: CLAUDE,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [question],
    });
    expect(first.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user greets me.',
      signature: 'stand-in-signature',
    });
    await client.messages.create({
      model: CLAUDE,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: 'And?' }],
    });
    const sentBack = anthropic.received[1].json?.messages as Array<{ content: unknown }>;
    expect(sentBack[1].content).toEqual(first.content);
  });

  it('rewrites only the model when the channel maps it', async () => {
    const { sent, client } = await newClient();
    await client.messages.create({
      model: 'claude-alias',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const forwarded = anthropic.received[0].json;
    expect(forwarded).toEqual({
      ...(JSON.parse(sent[0].body) as object),
      model: 'claude-haiku-4-5-20251001',
    });
  });
});

describe('Anthropic clients: the translated lane', () => {
  it('shows an OpenAI-style vendor’s reasoning as a thinking block and drops thinking sent back', async () => {
    const { client } = await newClient();
    openAI.behaviour = {
      raw: {
        body: JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: GPT,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Forty-two.', reasoning_content: 'Let me think.' },
              finish_reason: 'length',
            },
          ],
          usage: {
            prompt_tokens: 9,
            completion_tokens: 4,
            total_tokens: 13,
            prompt_tokens_details: { cached_tokens: 5 },
          },
        }),
      },
    };
    const message = await client.messages.create({
      model: GPT,
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'Question?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Earlier thought.', signature: 'sig-from-claude' },
            { type: 'text', text: 'Earlier answer.' },
          ],
        },
        { role: 'user', content: 'And now?' },
      ],
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: '' },
      { type: 'text', text: 'Forty-two.' },
    ]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage).toMatchObject({ input_tokens: 4, cache_read_input_tokens: 5, output_tokens: 4 });
    const messages = openAI.received[0].json?.messages as unknown[];
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Earlier answer.' });
  });

  it('drops Anthropic-only parts an OpenAI channel cannot take: cache marks and server tools', async () => {
    const { client } = await newClient();
    const message = await client.messages.create({
      model: GPT,
      max_tokens: 10,
      system: [{ type: 'text', text: 'Cached.', cache_control: { type: 'ephemeral' } }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from gpt' }]);
    const body = openAI.received[0].json ?? {};
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.tools).toBeUndefined();
  });

  it('keeps Claude Code’s system messages inside the conversation, on either lane', async () => {
    // Claude Code 2.1 sends role "system" turns (beta mid-conversation-system-2026-04-07) for any model it does
    // not know: every model of another vendor. Refusing them stopped the agent at its first request.
    const { client, sent } = await newClient();
    const turns = [
      { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
      { role: 'system', content: 'Available agent types: claude.' },
    ] as unknown as Anthropic.MessageParam[];
    const betas = ['claude-code-20250219', 'mid-conversation-system-2026-04-07'];
    const translated = await client.beta.messages.create({
      model: GPT,
      max_tokens: 10,
      betas,
      system: 'You are Claude Code.',
      messages: turns as Anthropic.Beta.BetaMessageParam[],
    });
    expect(translated.content).toEqual([{ type: 'text', text: 'Hello from gpt' }]);
    expect(openAI.received[0].json?.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.' },
      { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
      { role: 'system', content: 'Available agent types: claude.' },
    ]);
    await client.beta.messages.create({
      model: CLAUDE,
      max_tokens: 10,
      betas,
      system: 'You are Claude Code.',
      messages: turns as Anthropic.Beta.BetaMessageParam[],
    });
    expect(anthropic.received[0].body.toString('utf8')).toBe(sent[1].body);
    expect(anthropic.received[0].headers['anthropic-beta']).toBe(betas.join(','));
  });

  it('retries on another channel of the model, whatever protocol it speaks', async () => {
    await kit.test.context.options.set('RetryTimes', '1');
    const backup = await startOpenAIUpstream('backup');
    const { client } = await newClient();
    const channelId = await kit.createChannel({
      upstream: backup,
      models: 'claude-retry-model',
      priority: 0,
    });
    const anthropicId = await kit.createChannel({
      type: ChannelType.anthropic,
      baseUrl: anthropic.url,
      key: anthropic.apiKey,
      models: 'claude-retry-model',
      priority: 10,
    });
    anthropic.behaviour = { error: { status: 529 } };
    try {
      const message = await client.messages.create({
        model: 'claude-retry-model',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'Hello from backup' }]);
      expect(anthropic.received).toHaveLength(1);
    } finally {
      for (const id of [channelId, anthropicId]) {
        await kit.test.context.db.updateTable('channels').set({ status: 2 }).where('id', '=', id).execute();
      }
      kit.test.context.events.emit('channelsChanged');
      await backup.close();
    }
  });
});
