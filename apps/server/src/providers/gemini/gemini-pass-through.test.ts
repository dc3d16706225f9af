import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import {
  buildGeminiPassThroughRequest,
  createGeminiPassThroughStreamReader,
  readGeminiPassThroughResponse,
} from './gemini-pass-through';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));
const channel = {
  baseUrl: 'https://generativelanguage.googleapis.com',
  key: 'AIza-channel',
  other: '',
  config: {},
};

describe('the pass-through lane for Gemini clients', () => {
  it('forwards the client’s bytes, the mapped model only in the URL, the channel’s key in the header', () => {
    const rawBody = Buffer.from(
      '{"contents":[{"parts":[{"text":"Hi"}]}],"cachedContent":"cachedContents/x"}',
    );
    const request = buildGeminiPassThroughRequest(channel, rawBody, 'gemini-2.5-pro', true);
    expect(request.body).toBe(rawBody);
    expect(request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(request.headers['x-goog-api-key']).toBe('AIza-channel');
  });

  it('reads the usage of a forwarded answer, and its text when asked', () => {
    const body = fixture('generate-content-function-call.json');
    const read = readGeminiPassThroughResponse(body);
    expect(read.body).toBe(body);
    expect(read.usage).toEqual({ promptTokens: 92, completionTokens: 122, reasoningTokens: 84 });
    expect(read.completionText).toContain('"name":"get_current_weather"');
    expect(() => readGeminiPassThroughResponse(body.subarray(0, 200))).toThrow(UpstreamFormatError);
  });

  it('forwards stream events untouched and reads the last usage on the side', () => {
    const reader = createGeminiPassThroughStreamReader();
    const splitter = new SseEventSplitter();
    const payloads = [...splitter.push(fixture('stream-text.sse')), ...splitter.end()];
    for (const data of payloads) expect(reader.readEvent({ data })).toEqual([{ data }]);
    expect(reader.finish().usage).toEqual({ promptTokens: 7, completionTokens: 9 });
  });

  it('keeps the text to count when the stream reports no usage', () => {
    const reader = createGeminiPassThroughStreamReader();
    reader.readEvent({ data: '{"candidates":[{"content":{"parts":[{"text":"Hello "}]}}]}' });
    reader.readEvent({
      data: '{"candidates":[{"content":{"parts":[{"text":"world"}]},"finishReason":"STOP"}]}',
    });
    expect(reader.finish()).toEqual({ usage: null, completionText: 'Hello world' });
  });
});
