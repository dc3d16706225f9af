import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { SseEventSplitter } from '../../relay/sse-event-splitter';
import { AnthropicReportedError } from './anthropic-reported-error';
import {
  buildAnthropicPassThroughRequest,
  createAnthropicPassThroughStreamReader,
  readAnthropicPassThroughResponse,
  type AnthropicPassThroughInput,
} from './anthropic-pass-through';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

const rawBody = Buffer.from(
  '{"model":"claude-latest","max_tokens":100,"system":[{"type":"text","text":"Long rules","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"Hi"}],"context_management":{"edits":[]}}',
);

function inputOf(extra: Partial<AnthropicPassThroughInput> = {}): AnthropicPassThroughInput {
  return {
    channel: { baseUrl: 'https://api.anthropic.com', key: 'sk-ant-channel', other: '', config: {} },
    rawBody,
    body: JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>,
    upstreamModel: 'claude-latest',
    isModelMapped: false,
    clientHeaders: {},
    ...extra,
  };
}

describe('the pass-through lane for Anthropic clients', () => {
  it("forwards the client's bytes with the channel's key and the client's version and betas", () => {
    const request = buildAnthropicPassThroughRequest(
      inputOf({
        clientHeaders: { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'context-1m-2025-08-07' },
      }),
    );
    expect(request.body).toBe(rawBody);
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      'x-api-key': 'sk-ant-channel',
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'context-1m-2025-08-07',
    });
    expect(buildAnthropicPassThroughRequest(inputOf()).headers['anthropic-version']).toBe('2023-06-01');
  });

  it('rewrites only the model when the channel maps it, and reaches count_tokens', () => {
    const request = buildAnthropicPassThroughRequest(
      inputOf({ upstreamModel: 'claude-sonnet-4-5-20250929', isModelMapped: true }),
      '/v1/messages/count_tokens',
    );
    expect(request.url).toBe('https://api.anthropic.com/v1/messages/count_tokens');
    expect(JSON.parse(String(request.body))).toEqual({
      ...JSON.parse(rawBody.toString('utf8')),
      model: 'claude-sonnet-4-5-20250929',
    });
  });

  it('reads the usage of a forwarded answer, and its text when asked', () => {
    const body = fixture('message-with-tool-use.json');
    const read = readAnthropicPassThroughResponse(body);
    expect(read.body).toBe(body);
    expect(read.usage).toEqual({ promptTokens: 472, completionTokens: 94 });
    expect(read.completionText).toBe(
      'I\'ll check the current weather in San Francisco and the time there.{"location":"San Francisco, CA","unit":"celsius"}{}',
    );
  });

  it('refuses a cut answer and reports an error object answered with a 2xx', () => {
    const body = fixture('message-text.json');
    expect(() => readAnthropicPassThroughResponse(body.subarray(0, body.length - 20))).toThrow(
      UpstreamFormatError,
    );
    expect(() => readAnthropicPassThroughResponse(fixture('error-overloaded.json'))).toThrow(
      AnthropicReportedError,
    );
  });

  it('forwards stream events untouched and reads their usage on the side, with or without event names', () => {
    const splitter = new SseEventSplitter();
    const payloads = [...splitter.push(fixture('stream-web-search-with-cache-usage.sse')), ...splitter.end()];
    const unnamed = createAnthropicPassThroughStreamReader();
    const named = createAnthropicPassThroughStreamReader();
    for (const data of payloads) {
      expect(unnamed.readEvent({ data })).toEqual([{ data }]);
      const event = { event: (JSON.parse(data) as { type: string }).type, data, raw: `data: ${data}` };
      expect(named.readEvent(event)).toEqual([event]);
    }
    const usage = {
      promptTokens: 14882,
      completionTokens: 510,
      cacheReadTokens: 3000,
      cacheWriteTokens: 1200,
    };
    expect(unnamed.finish()).toEqual({ usage, completionText: '' });
    expect(named.finish()).toEqual({ usage, completionText: '' });
  });

  it('keeps the text to count when the stream reports no usage', () => {
    const reader = createAnthropicPassThroughStreamReader();
    reader.readEvent({
      data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello "}}',
    });
    reader.readEvent({
      data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"world"}}',
    });
    expect(reader.finish()).toEqual({ usage: null, completionText: 'Hello world' });
  });
});
