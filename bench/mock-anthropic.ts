import type { ServerResponse } from 'node:http';

/**
 * The mock's Anthropic Messages mode (`POST /v1/messages`): the same pieces and token counts as its OpenAI
 * answers, in Anthropic's JSON and event stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming),
 * so that the two protocols are measured on answers of the same size.
 */

export interface MessagesRequest {
  model: string;
  isStream: boolean;
}

export function readMessagesRequest(raw: string): MessagesRequest {
  const body = JSON.parse(raw) as { model?: unknown; stream?: unknown };
  return {
    model: typeof body.model === 'string' ? body.model : 'claude-haiku-4-5',
    isStream: body.stream === true,
  };
}

export function sendMessagesJson(
  response: ServerResponse,
  id: string,
  request: MessagesRequest,
  pieces: readonly string[],
): void {
  const body = JSON.stringify({
    id,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: [{ type: 'text', text: pieces.join('') }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 24, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 9 },
  });
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

const event = (payload: { type: string; [field: string]: unknown }) =>
  `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;

/**
 * message_start, the text block (start, one text_delta per piece, stop), message_delta and message_stop,
 * each its own write on its own tick, as the OpenAI stream is.
 */
export function sendMessagesStream(
  response: ServerResponse,
  id: string,
  request: MessagesRequest,
  pieces: readonly string[],
): void {
  const events = [
    event({
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 24,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...pieces.map((text) =>
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    ),
    event({ type: 'content_block_stop', index: 0 }),
    event({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 9 },
    }),
    event({ type: 'message_stop' }),
  ];
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let next = 0;
  const writeNext = () => {
    if (response.destroyed) return;
    const text = events[next];
    next += 1;
    if (next === events.length) response.end(text);
    else {
      response.write(text);
      setImmediate(writeNext);
    }
  };
  writeNext();
}
