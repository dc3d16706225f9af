import { describe, expect, it } from 'vitest';
import { SseEventSplitter, UpstreamEventTooLong } from './sse-event-splitter';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('SseEventSplitter', () => {
  it('answers none, one or several payloads per chunk, however the events are cut', () => {
    const splitter = new SseEventSplitter();
    expect(splitter.push(bytes('data: {"a":1}\n\ndata: {"a"'))).toEqual(['{"a":1}']);
    expect(splitter.push(bytes(':2}'))).toEqual([]);
    expect(splitter.push(bytes('\n\n: keep-alive\n\ndata: x\r\n\r\ndata: y\n\ndata: z'))).toEqual([
      '{"a":2}',
      'x',
      'y',
    ]);
    expect(splitter.end()).toEqual(['z']);
  });

  it('keeps event names and the raw text of whole events, a character cut in two included', () => {
    const splitter = new SseEventSplitter();
    const text = bytes('event: delta\ndata: é\n\ndata: [DONE]\n\n');
    const cut = text.indexOf(0xa9);
    expect(splitter.pushEvents(text.subarray(0, cut))).toEqual([]);
    expect(splitter.pushEvents(text.subarray(cut))).toEqual([
      { event: 'delta', data: 'é', raw: 'event: delta\ndata: é' },
      { event: null, data: '[DONE]', raw: 'data: [DONE]' },
    ]);
    expect(splitter.endEvents()).toEqual([]);
  });
});

describe('SseEventSplitter decoding', () => {
  it('decodes characters cut at every byte the same as whole ones', () => {
    const text = 'data: {"text":"héllo 世界 🙂"}\n\ndata: [DONE]\n\n';
    const whole = new SseEventSplitter().push(bytes(text));
    const encoded = bytes(text);
    for (let size = 1; size <= 7; size += 1) {
      const splitter = new SseEventSplitter();
      const payloads: string[] = [];
      for (let start = 0; start < encoded.length; start += size) {
        payloads.push(...splitter.push(encoded.subarray(start, start + size)));
      }
      payloads.push(...splitter.end());
      expect(payloads).toEqual(whole);
    }
    expect(whole).toEqual(['{"text":"héllo 世界 🙂"}', '[DONE]']);
  });

  it('keeps an invalid byte as the replacement character, cut or not', () => {
    const encoded = Buffer.concat([bytes('data: a'), Buffer.from([0xff]), bytes('b\n\n')]);
    expect(new SseEventSplitter().push(encoded)).toEqual(['a\uFFFDb']);
    const splitter = new SseEventSplitter();
    expect(splitter.push(encoded.subarray(0, 8))).toEqual([]);
    expect(splitter.push(encoded.subarray(8))).toEqual(['a\uFFFDb']);
  });
});

describe('SseEventSplitter cut anywhere', () => {
  // Line ends of every kind, blank lines straddling chunks, comments, names, several lines of data.
  const stream =
    'event: a\r\ndata: one\r\n\r\n: keep-alive\n\ndata: two\ndata: lines\n\n' +
    'data: three\r\rdata: four\r\n\r\nevent: b\ndata: five\n\n\n\ndata: six';

  it('answers the same events whatever sizes the chunks have', () => {
    const whole = new SseEventSplitter();
    const expected = [...whole.pushEvents(bytes(stream)), ...whole.endEvents()];
    expect(expected.map((event) => [event.event, event.data])).toEqual([
      ['a', 'one'],
      [null, 'two\nlines'],
      [null, 'three'],
      [null, 'four'],
      ['b', 'five'],
      [null, 'six'],
    ]);
    const encoded = bytes(stream);
    for (let size = 1; size <= 12; size += 1) {
      const splitter = new SseEventSplitter();
      const events = [];
      for (let start = 0; start < encoded.length; start += size) {
        events.push(...splitter.pushEvents(encoded.subarray(start, start + size)));
      }
      events.push(...splitter.endEvents());
      expect(events, `chunks of ${size} bytes`).toEqual(expected);
    }
  });

  it('takes a long event in many small chunks', () => {
    const payload = 'A'.repeat(1_000_000);
    const encoded = bytes(`data: ${payload}\n\ndata: next\n\n`);
    const splitter = new SseEventSplitter();
    const payloads: string[] = [];
    for (let start = 0; start < encoded.length; start += 1000) {
      payloads.push(...splitter.push(encoded.subarray(start, start + 1000)));
    }
    expect(payloads).toEqual([payload, 'next']);
  });

  it('refuses an event longer than it holds, naming the limit', () => {
    const splitter = new SseEventSplitter(1000);
    expect(splitter.push(bytes(`data: ${'A'.repeat(900)}`))).toEqual([]);
    expect(() => splitter.push(bytes('A'.repeat(200)))).toThrow(UpstreamEventTooLong);
    expect(() => new SseEventSplitter(10).push(bytes('data: more than ten'))).toThrow('longer than 10 bytes');
    expect(() => new SseEventSplitter(1000).push(bytes(`data: ${'A'.repeat(2000)}\n\n`))).not.toThrow();
  });
});
