import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  OpenAIUpstream,
  ReceivedRequest,
  UpstreamBehaviour,
  UpstreamUsage,
} from './openai-upstream-types';

const DEFAULT_USAGE: UpstreamUsage = { prompt: 12, completion: 5 };

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': contentType });
  response.end(text);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Chat usage as OpenAI reports it (https://platform.openai.com/docs/api-reference/chat/object). */
function usageOf(behaviour: UpstreamBehaviour) {
  const usage = behaviour.usage ?? DEFAULT_USAGE;
  const promptDetails = {
    ...(usage.cached ? { cached_tokens: usage.cached } : {}),
    ...(usage.audioInput ? { audio_tokens: usage.audioInput } : {}),
  };
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    ...(Object.keys(promptDetails).length > 0 ? { prompt_tokens_details: promptDetails } : {}),
    ...(usage.audioOutput
      ? { completion_tokens_details: { reasoning_tokens: 0, audio_tokens: usage.audioOutput } }
      : {}),
  };
}

/** gpt-image-1's usage (https://platform.openai.com/docs/api-reference/images/object). */
function imageUsageOf(behaviour: UpstreamBehaviour) {
  const usage = behaviour.usage ?? DEFAULT_USAGE;
  const image = usage.imageInput ?? 0;
  return {
    input_tokens: usage.prompt,
    input_tokens_details: { text_tokens: usage.prompt - image, image_tokens: image },
    output_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
}

/** gpt-4o-transcribe's usage: input_token_details, singular (https://platform.openai.com/docs/api-reference/audio/json-object). */
function transcriptionUsageOf(behaviour: UpstreamBehaviour) {
  const usage = behaviour.usage ?? DEFAULT_USAGE;
  const audio = usage.audioInput ?? 0;
  return {
    type: 'tokens',
    input_tokens: usage.prompt,
    input_token_details: { text_tokens: usage.prompt - audio, audio_tokens: audio },
    output_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
}

/** Whether the model calls a tool now: tools were offered and, in a scripted loop, no result is in yet. */
function isCallingTool(upstream: OpenAIUpstream, body: Record<string, unknown>): boolean {
  if (!Array.isArray(body.tools) || body.tools.length === 0) return false;
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: unknown }>) : [];
  return !upstream.behaviour.toolCall || !messages.some((message) => message.role === 'tool');
}

/** The model's answer: a tool call when it calls one (isCallingTool), else the behaviour's words. */
function chatMessage(upstream: OpenAIUpstream, body: Record<string, unknown>) {
  if (isCallingTool(upstream, body)) {
    const [first] = body.tools as Array<{ function?: { name?: string } }>;
    const scripted = upstream.behaviour.toolCall;
    return {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: {
            name: scripted?.name ?? first.function?.name ?? 'tool',
            arguments: scripted?.arguments ?? '{"city":"Paris"}',
          },
        },
      ],
    };
  }
  const text = (upstream.behaviour.words ?? defaultWords(upstream)).join('');
  if (Array.isArray(body.modalities) && body.modalities.includes('audio')) {
    // gpt-4o-audio-preview: the spoken answer as base64 with its transcript, no text content.
    const data = Buffer.from(`RIFF-fake-wav ${text}`).toString('base64');
    return {
      role: 'assistant',
      content: null,
      audio: { id: 'audio_upstream', data, expires_at: 1_700_003_600, transcript: text },
    };
  }
  return { role: 'assistant', content: text };
}

function defaultWords(upstream: OpenAIUpstream): string[] {
  return ['Hello', ' from', ` ${upstream.name}`];
}

async function streamChat(
  upstream: OpenAIUpstream,
  request: IncomingMessage,
  response: ServerResponse,
  body: Record<string, unknown>,
  isChat: boolean,
): Promise<void> {
  const { behaviour } = upstream;
  const model = String(body.model);
  const words = behaviour.words ?? defaultWords(upstream);
  const chunk = (choice: Record<string, unknown>) => ({
    id: 'chatcmpl-upstream',
    object: isChat ? 'chat.completion.chunk' : 'text_completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, ...choice }],
  });
  let isClosed = false;
  response.on('close', () => {
    if (!response.writableFinished) {
      isClosed = true;
      upstream.streamsCutByClient += 1;
    }
  });
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  if (behaviour.firstEventDelayMs) {
    response.flushHeaders();
    await sleep(behaviour.firstEventDelayMs);
    if (isClosed) return;
  }
  const write = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
  const tools = isCallingTool(upstream, body);
  if (isChat) write(chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }));
  if (tools) {
    const message = chatMessage(upstream, body);
    write(chunk({ delta: { tool_calls: message.tool_calls?.map((call, index) => ({ index, ...call })) } }));
  }
  for (const [index, word] of (tools ? [] : words).entries()) {
    if (behaviour.chunkDelayMs) await sleep(behaviour.chunkDelayMs);
    if (isClosed) return;
    if (behaviour.breakStreamAfterChunks !== undefined && index >= behaviour.breakStreamAfterChunks) {
      // Let what was written reach the client first: a real upstream dies mid-answer, not before it.
      await sleep(50);
      request.socket.destroy();
      return;
    }
    write(
      chunk(isChat ? { delta: { content: word }, finish_reason: null } : { text: word, finish_reason: null }),
    );
  }
  write(
    chunk(
      isChat
        ? { delta: {}, finish_reason: tools ? 'tool_calls' : 'stop' }
        : { text: '', finish_reason: 'stop' },
    ),
  );
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  const mode = behaviour.streamUsage ?? 'asked';
  if (mode === 'always' || (mode === 'asked' && streamOptions?.include_usage === true)) {
    write({
      id: 'chatcmpl-upstream',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [],
      usage: usageOf(behaviour),
    });
  }
  response.end('data: [DONE]\n\n');
}

/** Reads a multipart field's text (enough for the model and response_format of an audio upload). */
function multipartField(body: Buffer, name: string): string | undefined {
  const text = body.toString('latin1');
  const match = new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(text);
  return match?.[1];
}

/**
 * Answers a request the OpenAI stand-in received: chat and text completions (JSON or streamed, with tool
 * calls and audio), embeddings, moderations, images and audio, each with OpenAI's usage, or the error, cut
 * answer or broken connection its behaviour asks for.
 */
export async function answer(
  upstream: OpenAIUpstream,
  request: IncomingMessage,
  response: ServerResponse,
  received: ReceivedRequest,
) {
  const { behaviour } = upstream;
  if (behaviour.delayMs) await sleep(behaviour.delayMs);
  if (behaviour.disconnect) {
    request.socket.destroy();
    return;
  }
  if (behaviour.raw) {
    const { status = 200, contentType = 'application/json', body } = behaviour.raw;
    send(response, status, body, contentType);
    return;
  }
  if (behaviour.error) {
    const { status, message, type = 'invalid_request_error', code = null, headers } = behaviour.error;
    send(response, status, { error: { message, type, param: null, code } }, 'application/json', headers);
    return;
  }
  const path = received.url.split('?')[0];
  const body = received.json ?? {};
  const model = String(body.model ?? multipartField(received.body, 'model') ?? '');
  const usage = behaviour.omitUsage ? {} : { usage: usageOf(behaviour) };
  if (path.endsWith('/chat/completions') || path.endsWith('/completions')) {
    const isChat = path.endsWith('/chat/completions');
    if (body.stream === true && !behaviour.ignoreStream)
      return streamChat(upstream, request, response, body, isChat);
    const choices = Array.from({ length: Number(body.n ?? 1) }, (_, index) =>
      isChat
        ? { index, message: chatMessage(upstream, body), finish_reason: 'stop' }
        : { index, text: (behaviour.words ?? defaultWords(upstream)).join(''), finish_reason: 'stop' },
    );
    send(response, 200, {
      id: 'chatcmpl-upstream',
      object: isChat ? 'chat.completion' : 'text_completion',
      created: 1_700_000_000,
      model,
      choices,
      ...usage,
    });
    return;
  }
  if (path.endsWith('/embeddings')) {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    send(response, 200, {
      object: 'list',
      model,
      data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] })),
      ...(behaviour.omitUsage
        ? {}
        : {
            usage: {
              prompt_tokens: behaviour.usage?.prompt ?? 8,
              total_tokens: behaviour.usage?.prompt ?? 8,
            },
          }),
    });
    return;
  }
  if (path.endsWith('/moderations')) {
    send(response, 200, {
      id: 'modr-upstream',
      model: model || 'omni-moderation-latest',
      results: [{ flagged: false, categories: { violence: false }, category_scores: { violence: 0.01 } }],
    });
    return;
  }
  if (path.endsWith('/images/generations')) {
    const count = Number(body.n ?? 1);
    if (model.startsWith('gpt-image')) {
      // gpt-image-1 always answers base64 and reports its tokens.
      send(response, 200, {
        created: 1_700_000_000,
        data: Array.from({ length: count }, (_, index) => ({
          b64_json: Buffer.from(`PNG-fake-${index}`).toString('base64'),
        })),
        ...(behaviour.omitUsage ? {} : { usage: imageUsageOf(behaviour) }),
      });
      return;
    }
    send(response, 200, {
      created: 1_700_000_000,
      data: Array.from({ length: count }, (_, index) => ({ url: `https://images.example/${index}.png` })),
    });
    return;
  }
  if (path.endsWith('/audio/speech')) {
    send(response, 200, Buffer.from('ID3-fake-mp3-audio'), 'audio/mpeg');
    return;
  }
  if (path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations')) {
    const format = multipartField(received.body, 'response_format') ?? 'json';
    const text = 'the quick brown fox';
    const tokens = /^gpt-4o(-mini)?-transcribe/.test(model) && !behaviour.omitUsage;
    if (format === 'text') send(response, 200, text, 'text/plain');
    else send(response, 200, { text, ...(tokens ? { usage: transcriptionUsageOf(behaviour) } : {}) });
    return;
  }
  send(response, 404, {
    error: { message: `Unknown path ${path}`, type: 'invalid_request_error', code: null },
  });
}
