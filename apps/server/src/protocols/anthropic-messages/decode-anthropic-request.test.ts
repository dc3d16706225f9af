import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertToAnthropicRequest } from '../../providers/anthropic/convert-to-anthropic-request';
import { decodeAnthropicCountRequest, decodeAnthropicRequest } from './decode-anthropic-request';
import { hello } from './decode-anthropic-request-fixtures';

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../providers/anthropic/__fixtures__/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

describe('decoding an Anthropic Messages request', () => {
  it('reads system blocks, every user block and the sampling fields', () => {
    const request = decodeAnthropicRequest({
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'A long manual.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:', cache_control: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            {
              type: 'document',
              title: 'report.pdf',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              cache_control: { type: 'ephemeral' },
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
            { type: 'search_result', source: 'https://x', title: 't', content: [] },
          ],
        },
      ],
      stop_sequences: ['END'],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      metadata: { user_id: 'user-42' },
      stream: true,
    });
    expect(request).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are terse.' },
            { type: 'text', text: 'A long manual.', cache_control: { type: 'ephemeral', ttl: '1h' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:', cache_control: { type: 'ephemeral' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            {
              type: 'file',
              file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' },
              cache_control: { type: 'ephemeral' },
            },
            {
              type: 'file',
              file: { file_data: `data:text/plain;base64,${Buffer.from('plain words').toString('base64')}` },
            },
          ],
        },
      ],
      stop: ['END'],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      user: 'user-42',
      stream: true,
    });
  });

  it('reads a tool loop with thinking that the Anthropic translator writes back as it was', () => {
    // The request the Anthropic adapter's translator sends for a canonical tool loop with thinking: decoded
    // and encoded again, nothing changes.
    const body = fixture('request-tool-round-trip-with-thinking.json');
    const request = decodeAnthropicRequest(body);
    const assistant = request.messages.find((message) => message.role === 'assistant');
    expect(assistant).toMatchObject({
      content: [
        { type: 'thinking', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...' },
        { type: 'text', text: 'Let me check both cities.' },
      ],
      tool_calls: [{ id: 'toolu_01A09q90qw90lq917835lq9' }, { id: 'call_2_berlin' }],
    });
    const translated = convertToAnthropicRequest({
      channel: { baseUrl: 'https://api.anthropic.com', key: 'k', other: '', config: {} },
      request,
      upstreamModel: String(body.model),
      isStream: body.stream === true,
      clientHeaders: {},
    });
    expect(translated).toEqual(body);
  });

  it('keeps the order of a user turn: tool results as tool messages, then the rest', () => {
    const request = decodeAnthropicRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two tools.', signature: 'sig' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'clock', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '21°C' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              is_error: true,
              content: [
                { type: 'text', text: 'clock broken' },
                { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
              ],
            },
            { type: 'text', text: 'Go on.' },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two tools.', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Checking.' },
        ],
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'clock', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '21°C' },
      {
        role: 'tool',
        tool_call_id: 'toolu_2',
        is_error: true,
        content: [
          { type: 'text', text: 'clock broken' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
    ]);
  });

  it('makes custom tools function tools and Anthropic’s own tools vendor tools', () => {
    const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 };
    const bash = { type: 'bash_20250124', name: 'bash' };
    const request = decodeAnthropicRequest({
      model: 'm',
      max_tokens: 10,
      messages: hello,
      tools: [
        {
          name: 'weather',
          description: 'The weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'custom', name: 'clock', input_schema: { type: 'object' }, strict: true },
        webSearch,
        bash,
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'The weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
        cache_control: { type: 'ephemeral' },
      },
      { type: 'function', function: { name: 'clock', parameters: { type: 'object' }, strict: true } },
      { type: 'web_search_20250305', vendor_protocol: 'anthropic-messages', definition: webSearch },
      { type: 'bash_20250124', vendor_protocol: 'anthropic-messages', definition: bash },
    ]);
    expect(request.tool_choice).toBe('required');
    expect(request.parallel_tool_calls).toBe(false);
  });

  it.each([
    [{ type: 'auto' }, { tool_choice: 'auto' }],
    [{ type: 'none' }, { tool_choice: 'none' }],
    [{ type: 'tool', name: 'weather' }, { tool_choice: { type: 'function', function: { name: 'weather' } } }],
  ])('reads tool_choice %j', (choice, expected) => {
    const request = decodeAnthropicRequest({
      model: 'm',
      max_tokens: 10,
      messages: hello,
      tool_choice: choice,
    });
    expect(request).toMatchObject(expected);
    expect(request.parallel_tool_calls).toBeUndefined();
  });

  it('reads thinking budgets, adaptive thinking with its effort, and structured outputs', () => {
    expect(
      decodeAnthropicRequest({
        model: 'm',
        max_tokens: 4000,
        messages: hello,
        thinking: { type: 'enabled', budget_tokens: 2048 },
      }).thinking,
    ).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const adaptive = decodeAnthropicRequest({
      model: 'm',
      max_tokens: 4000,
      messages: hello,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'max', format: { type: 'json_schema', schema: { type: 'object' } } },
    });
    expect(adaptive.thinking).toBeUndefined();
    expect(adaptive.reasoning_effort).toBe('high');
    expect(adaptive.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object' } },
    });
  });

  it('keeps fields it does not know for the pass-through lane, but never under a canonical name', () => {
    const request = decodeAnthropicRequest({
      model: 'm',
      max_tokens: 10,
      messages: hello,
      context_management: { edits: [] },
      container: 'container_1',
      mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }],
      service_tier: 'auto',
      n: 3,
      user: 'not-how-anthropic-names-it',
    });
    expect(request).toMatchObject({
      context_management: { edits: [] },
      container: 'container_1',
      mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }],
      service_tier: 'auto',
    });
    expect(request.n).toBeUndefined();
    expect(request.user).toBeUndefined();
  });

  it('accepts blocks of server tools and newer block types, leaving them out of the canonical request', () => {
    const request = decodeAnthropicRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'Search.' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
            { type: 'text', text: 'Found it.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'web_fetch_tool_result', content: {} }] },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'Search.' },
      { role: 'assistant', content: 'Found it.' },
    ]);
  });

  it('keeps system messages inside the conversation where they are, as Claude Code sends them', () => {
    // Claude Code 2.1 sends role "system" turns (beta mid-conversation-system-2026-04-07) for models it does
    // not know, i.e. every model of another vendor behind the gateway.
    const request = decodeAnthropicRequest({
      model: 'gpt-4o-mini',
      max_tokens: 32000,
      system: 'You are Claude Code.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
        { role: 'system', content: 'Available agent types: claude.' },
        {
          role: 'system',
          content: [
            { type: 'text', text: 'Mind the tests.', cache_control: { type: 'ephemeral' } },
            { type: 'tool_addition', tool: { type: 'tool_reference', name: 'Bash' } },
          ],
        },
        { role: 'system', content: [{ type: 'tool_removal', name: 'Bash' }] },
        { role: 'system', content: '' },
        { role: 'assistant', content: 'Hi!' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.' },
      { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
      { role: 'system', content: 'Available agent types: claude.' },
      {
        role: 'system',
        content: [{ type: 'text', text: 'Mind the tests.', cache_control: { type: 'ephemeral' } }],
      },
      { role: 'assistant', content: 'Hi!' },
    ]);
    // An Anthropic channel reached through the translator (an OpenAI client) gets them in its system prompt.
    const anthropic = convertToAnthropicRequest({
      channel: { baseUrl: 'https://api.anthropic.com', key: 'k', other: '', config: {} },
      request,
      upstreamModel: 'claude-haiku-4-5',
      isStream: false,
      clientHeaders: {},
    });
    expect(anthropic.system).toEqual([
      { type: 'text', text: 'You are Claude Code.' },
      { type: 'text', text: 'Available agent types: claude.' },
      { type: 'text', text: 'Mind the tests.', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('does not ask count_tokens bodies for max_tokens', () => {
    expect(decodeAnthropicCountRequest({ model: 'm', messages: hello })).toEqual({
      model: 'm',
      messages: hello,
    });
  });
});
