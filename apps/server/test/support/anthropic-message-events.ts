import type { AnthropicMessage } from '../../src/providers/anthropic/anthropic-wire-types';
import type { AnthropicStreamEvent } from '../../src/providers/anthropic/anthropic-stream-events';

/** Cuts text after each run of spaces, so each word is one text_delta. */
const pieces = (text: string) => text.split(/(?<=\s)(?=\S)/);

/** A message as Anthropic streams it: https://docs.anthropic.com/en/docs/build-with-claude/streaming */
export function anthropicMessageEvents(message: AnthropicMessage, words?: string[]): AnthropicStreamEvent[] {
  const events: AnthropicStreamEvent[] = [
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...message.usage, output_tokens: 1 },
      },
    },
    { type: 'ping' },
  ];
  message.content.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const text of words ?? pieces(block.text)) {
          events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
        }
        break;
      case 'thinking':
        events.push(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          },
          { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'signature_delta', signature: block.signature },
          },
        );
        break;
      case 'tool_use': {
        const input = JSON.stringify(block.input);
        const half = Math.floor(input.length / 2);
        events.push(
          { type: 'content_block_start', index, content_block: { ...block, input: {} } },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: input.slice(0, half) },
          },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: input.slice(half) },
          },
        );
        break;
      }
      default:
        events.push({ type: 'content_block_start', index, content_block: block });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: { output_tokens: message.usage.output_tokens },
    },
    { type: 'message_stop' },
  );
  return events;
}
