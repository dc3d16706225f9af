import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from '../protocols/anthropic-messages/anthropic-messages-codec';
import { createGeminiCodec } from '../protocols/gemini/gemini-codec';
import { openAIChatCodec } from '../protocols/openai-chat/openai-chat-codec';
import type { StreamReader } from '../providers/provider-types';
import { createPassThroughTranscoder } from './stream-transcoders';

/** Forwards every event as it came. */
const asItCame: StreamReader = {
  readEvent: (event) => [event],
  finish: () => ({ usage: null, completionText: '' }),
};

const bytes = (text: string) => Buffer.from(text);

describe('a forwarded stream', () => {
  it("holds Anthropic's message_stop for the end, written once the charge is committed", () => {
    const transcoder = createPassThroughTranscoder(asItCame, anthropicMessagesCodec, 'req');
    const delta = 'event: content_block_delta\ndata: {"type":"content_block_delta"}\n\n';
    const stop = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    expect(transcoder.push(bytes(delta))).toBe(delta);
    expect(transcoder.push(bytes(stop))).toBe('');
    expect(transcoder.end()).toBe(stop);
  });

  it("holds Gemini's chunk with the finish reason, and what follows it, for the end", () => {
    const codec = createGeminiCodec({ model: 'gemini-2.5-flash', isStream: true, isSse: true });
    const transcoder = createPassThroughTranscoder(asItCame, codec, 'req');
    const text = 'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}\n\n';
    const last = 'data: {"candidates":[{"finishReason":"STOP"}]}\n\n';
    const usage = 'data: {"usageMetadata":{"promptTokenCount":3}}\n\n';
    expect(transcoder.push(bytes(text))).toBe(text);
    expect(transcoder.push(bytes(last + usage))).toBe('');
    expect(transcoder.end()).toBe(last + usage);
  });

  it('writes a [DONE] that came first only with the first real event, so a stream of nothing else sends nothing', () => {
    const transcoder = createPassThroughTranscoder(asItCame, anthropicMessagesCodec, 'req');
    const done = 'data: [DONE]\n\n';
    const delta = 'event: content_block_delta\ndata: {"type":"content_block_delta"}\n\n';
    expect(transcoder.push(bytes(done))).toBe('');
    expect(transcoder.push(bytes(delta))).toBe(done + delta);
    expect(transcoder.push(bytes(done))).toBe(done);

    const onlyDone = createPassThroughTranscoder(asItCame, anthropicMessagesCodec, 'req');
    expect(onlyDone.push(bytes(done))).toBe('');
    expect(() => onlyDone.end()).toThrow('the upstream stream was empty');
  });

  it('forwards OpenAI events at once: its end ([DONE]) is written by end()', () => {
    const transcoder = createPassThroughTranscoder(asItCame, openAIChatCodec, 'req');
    const chunk = 'data: {"choices":[{"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\n';
    expect(transcoder.push(bytes(chunk))).toBe(chunk);
    expect(transcoder.end()).toBe('data: [DONE]\n\n');
  });
});
