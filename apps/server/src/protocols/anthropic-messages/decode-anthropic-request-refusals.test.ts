import { describe, expect, it } from 'vitest';
import { RelayError } from '../../relay/relay-error';
import { decodeAnthropicRequest } from './decode-anthropic-request';
import { hello } from './decode-anthropic-request-fixtures';

function refusal(body: Record<string, unknown>): { param: string | null; message: string; status: number } {
  try {
    decodeAnthropicRequest(body);
  } catch (error) {
    if (error instanceof RelayError) {
      return { param: error.param, message: error.message, status: error.statusCode };
    }
    throw error;
  }
  throw new Error('the body was accepted');
}

/**
 * The bodies decodeAnthropicRequest refuses: 400, the path of the field at fault as the param, and a message
 * that starts with it. The bodies it reads are in decode-anthropic-request.test.ts.
 */
describe('decoding an Anthropic Messages request', () => {
  it.each([
    [{ messages: hello, max_tokens: 1 }, 'model', 'model: Field required'],
    [{ model: 'm', messages: hello }, 'max_tokens', 'max_tokens: Field required'],
    [{ model: 'm', messages: hello, max_tokens: 0 }, 'max_tokens', 'greater than or equal to 1'],
    [{ model: 'm', messages: hello, max_tokens: 1.5 }, 'max_tokens', 'valid integer'],
    [{ model: 'm', max_tokens: 1 }, 'messages', 'messages: Field required'],
    [{ model: 'm', max_tokens: 1, messages: [] }, 'messages', 'at least one message'],
    [
      { model: 'm', max_tokens: 1, messages: [{ role: 'tool', content: 'x' }] },
      'messages.0.role',
      "'user', 'assistant' or 'system'",
    ],
    [
      { model: 'm', max_tokens: 1, messages: [...hello, { role: 'system', content: [{ type: 'text' }] }] },
      'messages.1.content.0.text',
      'Field required',
    ],
    [{ model: 'm', max_tokens: 1, messages: [{ role: 'user' }] }, 'messages.0.content', 'Field required'],
    [
      { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      'messages.0.content.0.text',
      'Field required',
    ],
    [
      {
        model: 'm',
        max_tokens: 1,
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }] },
        ],
      },
      'messages.0.content.0.source.data',
      'Field required',
    ],
    [
      {
        model: 'm',
        max_tokens: 1,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'ftp' } }] }],
      },
      'messages.0.content.0.source.type',
      "Input tag 'ftp'",
    ],
    [
      {
        model: 'm',
        max_tokens: 1,
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'b', input: [] }] }],
      },
      'messages.0.content.0.input',
      'valid dictionary',
    ],
    [
      { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] },
      'messages.0.content.0.tool_use_id',
      'Field required',
    ],
    [{ model: 'm', max_tokens: 1, messages: hello, system: [{ type: 'image' }] }, 'system.0.type', "'text'"],
    [
      { model: 'm', max_tokens: 1, messages: hello, temperature: 1.5 },
      'temperature',
      'less than or equal to 1',
    ],
    [
      { model: 'm', max_tokens: 1, messages: hello, stop_sequences: ['a', 2] },
      'stop_sequences.1',
      'valid string',
    ],
    [
      { model: 'm', max_tokens: 1, messages: hello, tools: [{ name: 'f' }] },
      'tools.0.input_schema',
      'Field required',
    ],
    [
      { model: 'm', max_tokens: 1, messages: hello, tool_choice: { type: 'some' } },
      'tool_choice.type',
      "Input tag 'some'",
    ],
    [
      { model: 'm', max_tokens: 1, messages: hello, tool_choice: { type: 'tool' } },
      'tool_choice.name',
      'Field required',
    ],
    [
      { model: 'm', max_tokens: 9000, messages: hello, thinking: { type: 'enabled', budget_tokens: 100 } },
      'thinking.budget_tokens',
      'greater than or equal to 1024',
    ],
    [{ model: 'm', max_tokens: 1, messages: hello, stream: 'yes' }, 'stream', 'valid boolean'],
    [
      { model: 'm', max_tokens: 1, messages: hello, metadata: { user_id: 7 } },
      'metadata.user_id',
      'valid string',
    ],
  ])('refuses %j naming %s', (body, param, words) => {
    const refused = refusal(body as Record<string, unknown>);
    expect(refused.status).toBe(400);
    expect(refused.param).toBe(param);
    expect(refused.message).toContain(words);
    expect(refused.message.startsWith(`${param}: `)).toBe(true);
  });
});
