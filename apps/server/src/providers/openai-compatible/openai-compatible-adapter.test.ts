import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { describeUpstreamError } from '../../relay/upstream-failure';
import type { ChannelCredentials, SseEvent } from '../provider-types';
import { convertOpenAIUsage } from './convert-openai-usage';
import { createOpenAICompatibleAdapter, prefixedLayout } from './openai-compatible-adapter';
import { findUsageObject } from './read-openai-response';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));
const adapter = createOpenAICompatibleAdapter(prefixedLayout('openai', '/v1'));
const channel: ChannelCredentials = {
  baseUrl: 'https://api.example.com',
  key: 'sk-channel',
  other: '',
  config: {},
};

/** Replays a recorded stream cut into pieces of `size` bytes, as the network may deliver it. */
function replayStream(name: string, size: number, clientWantsUsage: boolean) {
  const bytes = fixture(name);
  const splitter = new SseEventSplitter();
  const reader = adapter.passThrough.createStreamReader({ clientWantsUsage });
  const forwarded: string[] = [];
  let sawDone = false;
  const read = (events: SseEvent[]) => {
    for (const event of events) {
      sawDone ||= event.data === '[DONE]';
      forwarded.push(...reader.readEvent(event).map((kept) => kept.data));
    }
  };
  for (let offset = 0; offset < bytes.length; offset += size)
    read(splitter.pushEvents(bytes.subarray(offset, offset + size)));
  read(splitter.endEvents());
  return { forwarded, sawDone, ...reader.finish() };
}

describe('OpenAI-format answers', () => {
  it('reads the usage of a chat completion and forwards the bytes untouched', () => {
    const body = fixture('chat-completion-with-usage.json');
    const read = adapter.passThrough.readResponse(body);
    expect(read.body).toBe(body);
    expect(read.usage).toEqual({ promptTokens: 19, completionTokens: 10 });
  });

  it('finds the usage object alone, wherever it is, and never inside a string', () => {
    expect(findUsageObject('{"a":1,"usage" : {"prompt_tokens":2,"details":{"x":"}"}}}')).toEqual({
      prompt_tokens: 2,
      details: { x: '}' },
    });
    expect(findUsageObject('{"usage":{"prompt_tokens":3},"choices":[]}')).toEqual({ prompt_tokens: 3 });
    expect(findUsageObject('{"choices":[{"message":{"content":"say \\"usage\\": {1}"}}]}')).toBeUndefined();
    expect(findUsageObject('{"usage":null}')).toBeUndefined();
  });

  it('has the tool call as text to count when the answer has no usage', () => {
    const read = adapter.passThrough.readResponse(fixture('chat-completion-tool-calls-without-usage.json'));
    expect(read.usage).toBeNull();
    expect(read.completionText).toBe('get_current_weather{\n"location": "Boston, MA"\n}');
  });

  it('reads embeddings, gpt-image-1 and transcription usage', () => {
    expect(adapter.embeddings?.readResponse(fixture('embeddings.json')).usage).toEqual({
      promptTokens: 8,
      completionTokens: 0,
    });
    // 40 of the 50 prompt tokens are the input image's (input_tokens_details), priced by ImageInputRatio.
    expect(adapter.images?.readResponse(fixture('image-gpt-image-1-usage.json')).usage).toEqual({
      promptTokens: 50,
      completionTokens: 50,
      imageInputTokens: 40,
    });
    const transcript = adapter.audioTranscriptions?.readResponse(
      fixture('transcription-gpt-4o-usage.json'),
      'application/json',
    );
    // The transcription models spell the detail input_token_details (singular): its 14 audio tokens are
    // priced by AudioInputRatio, not billed as text.
    expect(transcript?.usage).toEqual({ promptTokens: 14, completionTokens: 45, audioInputTokens: 14 });
    const whisper = adapter.audioTranscriptions?.readResponse(
      fixture('transcription-whisper-duration.json'),
      'application/json',
    );
    expect(whisper?.usage).toBeNull();
    expect(whisper?.completionText).toBe("Imagine the wildest idea that you've ever had.");
  });
});

describe('OpenAI-format streams', () => {
  it.each([1, 7, 64, 100_000])(
    'reads usage and drops the unasked usage chunk (pieces of %i bytes)',
    (size) => {
      const replay = replayStream('chat-stream-with-usage.sse', size, false);
      expect(replay.usage).toEqual({ promptTokens: 9, completionTokens: 2 });
      expect(replay.sawDone).toBe(true);
      expect(replay.forwarded).not.toContain('[DONE]');
      expect(replay.forwarded).toHaveLength(4);
      expect(replay.forwarded.some((chunk) => chunk.includes('"choices":[]'))).toBe(false);
      expect(replay.forwarded.join('')).toContain(' wörld');
    },
  );

  it('keeps the usage chunk for a client that asked for it', () => {
    const replay = replayStream('chat-stream-with-usage.sse', 50, true);
    expect(replay.forwarded).toHaveLength(5);
    expect(JSON.parse(replay.forwarded[4]).usage.total_tokens).toBe(11);
  });

  it('collects the text of a CRLF stream without usage, skipping comments', () => {
    const replay = replayStream('chat-stream-without-usage-crlf.sse', 13, false);
    expect(replay.usage).toBeNull();
    expect(replay.completionText).toBe('Bonjour à tous');
    expect(replay.forwarded).toHaveLength(4);
  });

  it('counts streamed tool calls', () => {
    const replay = replayStream('chat-stream-tool-calls-without-usage.sse', 33, false);
    expect(replay.completionText).toBe('get_weather{"location":"Paris"}');
  });

  it('keeps a usage that arrives on a chunk with choices (DeepSeek) and forwards that chunk', () => {
    const replay = replayStream('chat-stream-reasoning-usage-on-last-choice.sse', 40, false);
    expect(replay.usage).toEqual({ promptTokens: 13, completionTokens: 35, reasoningTokens: 30 });
    expect(replay.forwarded).toHaveLength(4);
  });
});

describe('requests', () => {
  const raw = Buffer.from('{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"x_vendor":1}');
  const body = JSON.parse(raw.toString()) as Record<string, unknown>;

  it('forwards the client bytes when nothing changes', () => {
    const request = adapter.passThrough.buildRequest({
      channel,
      body,
      rawBody: raw,
      upstreamModel: 'gpt-4o',
      isModelMapped: false,
      isStream: false,
      clientHeaders: {},
    });
    expect(request).toEqual({
      url: 'https://api.example.com/v1/chat/completions',
      headers: { authorization: 'Bearer sk-channel', 'content-type': 'application/json' },
      body: raw,
    });
  });

  it('rewrites the model and asks for stream usage, keeping the other fields', () => {
    const request = adapter.passThrough.buildRequest({
      channel,
      body: { ...body, stream: true, stream_options: { include_obfuscation: false } },
      rawBody: raw,
      upstreamModel: 'gpt-4o-2024-08-06',
      isModelMapped: true,
      isStream: true,
      clientHeaders: {},
    });
    expect(JSON.parse(String(request.body))).toEqual({
      ...body,
      model: 'gpt-4o-2024-08-06',
      stream: true,
      stream_options: { include_obfuscation: false, include_usage: true },
    });
  });
});

describe('errors', () => {
  it.each([
    ['error-invalid-api-key.json', 401, { isChannelDead: true, isRetriable: true, status: 502 }],
    ['error-insufficient-quota.json', 429, { isChannelDead: true, isRetriable: true, status: 502 }],
    [
      'error-rate-limited.json',
      429,
      { isChannelDead: false, isRetriable: true, status: 429, code: 'rate_limit_exceeded' },
    ],
    [
      'error-context-length.json',
      400,
      { isChannelDead: false, isRetriable: false, status: 400, code: 'context_length_exceeded' },
    ],
    ['error-html-bad-gateway.txt', 502, { isChannelDead: false, isRetriable: true, status: 502 }],
  ])('%s (HTTP %i)', (name, status, expected) => {
    const failure = describeUpstreamError(status, adapter.readError(fixture(name), status), {
      typeName: 'OpenAI',
      key: 'sk-channel',
    });
    expect(failure).toMatchObject(expected);
    expect(failure.message).not.toContain('sk-proj-*');
  });

  it('reads the usage shapes of every endpoint', () => {
    expect(convertOpenAIUsage({ prompt_tokens: 3, completion_tokens: 4 })).toEqual({
      promptTokens: 3,
      completionTokens: 4,
    });
    expect(convertOpenAIUsage({ prompt_tokens: 3, total_tokens: 10 })).toEqual({
      promptTokens: 3,
      completionTokens: 7,
    });
    expect(convertOpenAIUsage({ total_tokens: 10 })).toEqual({ promptTokens: 10, completionTokens: 0 });
    expect(convertOpenAIUsage({ input_tokens: 1, output_tokens: 2 })).toEqual({
      promptTokens: 1,
      completionTokens: 2,
    });
    expect(convertOpenAIUsage({ type: 'duration', seconds: 3 })).toBeNull();
    expect(convertOpenAIUsage(null)).toBeNull();
    expect(convertOpenAIUsage({ prompt_tokens: -1, completion_tokens: 'x' })).toBeNull();
  });
});
