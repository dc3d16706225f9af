import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../canonical/chat';
import { UpstreamFormatError } from '../../canonical/translation';
import { createGeminiStreamDecoder, GeminiStreamError } from './gemini-stream-decoder';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

/** Feeds the bytes in pieces of `size`, as the network may cut them. */
function decode(bytes: Buffer, size = bytes.length) {
  const decoder = createGeminiStreamDecoder();
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  chunks.push(...decoder.end());
  return { chunks, usage: decoder.usage() };
}

const sse = (...events: unknown[]) =>
  Buffer.from(events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join(''));
const choicesOf = (chunks: ChatChunk[]) => chunks.map((chunk) => chunk.choices[0]);

describe('streamGenerateContent?alt=sse → chat chunks', () => {
  it('gives the same chunks fed one byte at a time as in one piece', () => {
    for (const name of ['stream-text.sse', 'stream-function-call.sse']) {
      const whole = decode(fixture(name));
      const byByte = decode(fixture(name), 1);
      // created is each decoder's clock: the two runs may straddle a second
      const withoutClock = (chunks: ChatChunk[]) => chunks.map((chunk) => ({ ...chunk, created: 0 }));
      expect(withoutClock(byByte.chunks)).toEqual(withoutClock(whole.chunks));
      expect(byByte.usage).toEqual(whole.usage);
      expect(whole.chunks.length).toBeGreaterThan(2);
    }
  });

  it('streams text: role first, deltas, the finish reason last, usage from the last event', () => {
    const { chunks, usage } = decode(fixture('stream-text.sse'));
    expect(choicesOf(chunks)).toEqual([
      { index: 0, delta: { role: 'assistant', content: 'Bonjour' }, finish_reason: null },
      { index: 0, delta: { content: ' ! Un café ' }, finish_reason: null },
      { index: 0, delta: { content: '☕ pour vous.' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
    ]);
    expect(chunks.every((chunk) => chunk.id === '0sEcaOaQGIqk1dkP2qKL0Ak')).toBe(true);
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'gemini-2.5-flash' });
    expect(usage).toEqual({ promptTokens: 7, completionTokens: 9 });
  });

  it('streams thought summaries as reasoning and a whole function call as one tool call delta', () => {
    const { chunks, usage } = decode(fixture('stream-function-call.sse'));
    expect(choicesOf(chunks)).toEqual([
      {
        index: 0,
        delta: {
          role: 'assistant',
          reasoning_content: '**Checking the weather**\n\nThe user wants the weather in Paris; ',
        },
        finish_reason: null,
      },
      { index: 0, delta: { reasoning_content: 'I will call get_current_weather.' }, finish_reason: null },
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index: 0,
              id: 'c4k9w2qe__thought__CiQBcsjafH-9_Q3rG0nqYlX2w1pZk8sTbVqo0aJ4Lx6eFhW7dXE',
              type: 'function',
              function: {
                name: 'get_current_weather',
                arguments: '{"location":"Paris, France","unit":"celsius"}',
              },
            },
          ],
        },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
    ]);
    expect(usage).toEqual({ promptTokens: 61, completionTokens: 92, reasoningTokens: 68 });
  });

  it('streams a signature on a text part as reasoning_signature before that text', () => {
    const { chunks } = decode(
      sse(
        { candidates: [{ content: { parts: [{ text: 'Hmm. ', thought: true }] } }] },
        { candidates: [{ content: { parts: [{ text: 'Eight.', thoughtSignature: 'c2ln' }] } }] },
        {
          candidates: [
            { content: { parts: [{ text: '', thoughtSignature: 'bW9yZQ==' }] }, finishReason: 'STOP' },
          ],
        },
      ),
    );
    expect(choicesOf(chunks).map((choice) => choice.delta)).toEqual([
      { role: 'assistant', reasoning_content: 'Hmm. ' },
      { reasoning_signature: 'c2ln' },
      { content: 'Eight.' },
      { reasoning_signature: 'bW9yZQ==' },
      {},
    ]);
  });

  it('answers a blocked prompt with one content_filter chunk', () => {
    const { chunks, usage } = decode(
      sse({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 9 } }),
    );
    expect(choicesOf(chunks)).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(usage).toEqual({ promptTokens: 9, completionTokens: 0 });
  });

  it('streams output stopped by safety as content_filter', () => {
    const { chunks } = decode(
      sse(
        { candidates: [{ content: { parts: [{ text: 'Here is how' }] } }] },
        { candidates: [{ finishReason: 'SAFETY', safetyRatings: [] }] },
      ),
    );
    expect(choicesOf(chunks).at(-1)).toEqual({ index: 0, delta: {}, finish_reason: 'content_filter' });
  });

  it('keeps candidates apart, each with its role, tool call numbering and finish reason', () => {
    const { chunks } = decode(
      sse(
        {
          responseId: 'r',
          candidates: [
            { index: 0, content: { parts: [{ text: 'A' }] } },
            { index: 1, content: { parts: [{ functionCall: { name: 'f', args: { x: 1 } } }] } },
          ],
        },
        {
          candidates: [
            { index: 0, finishReason: 'MAX_TOKENS' },
            { index: 1, finishReason: 'STOP' },
          ],
        },
      ),
    );
    expect(choicesOf(chunks)).toEqual([
      { index: 0, delta: { role: 'assistant', content: 'A' }, finish_reason: null },
      {
        index: 1,
        delta: {
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'call_r_1_0', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
          ],
        },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: 'length' },
      { index: 1, delta: {}, finish_reason: 'tool_calls' },
    ]);
  });

  it('reads an event without its final blank line when the stream ends', () => {
    const bytes = Buffer.from(
      'data: {"candidates":[{"content":{"parts":[{"text":"end"}]},"finishReason":"STOP"}]}',
    );
    expect(choicesOf(decode(bytes).chunks).map((choice) => choice.finish_reason)).toEqual([null, 'stop']);
  });

  it('throws the error Gemini reports inside the stream, with its kind', () => {
    const decoder = createGeminiStreamDecoder();
    const failure = sse({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
    let thrown: unknown;
    try {
      decoder.push(failure);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GeminiStreamError);
    expect(thrown).toBeInstanceOf(UpstreamFormatError);
    expect((thrown as GeminiStreamError).details).toMatchObject({ type: 'UNAVAILABLE', kind: 'overloaded' });
  });

  it('throws UpstreamFormatError for an event that is not JSON', () => {
    expect(() => createGeminiStreamDecoder().push(Buffer.from('data: {"candidates":[\n\n'))).toThrow(
      UpstreamFormatError,
    );
  });
});
