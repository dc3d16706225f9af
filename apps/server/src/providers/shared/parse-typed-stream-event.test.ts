import { describe, expect, it } from 'vitest';
import { UpstreamFormatError } from '../../canonical/translation';
import { parseTypedStreamEvent } from './parse-typed-stream-event';

describe('parseTypedStreamEvent', () => {
  it('answers an event object with a type', () => {
    expect(parseTypedStreamEvent('{"type":"ping","n":1}', 'Acme')).toEqual({ type: 'ping', n: 1 });
  });

  it('throws a format error naming the vendor for data that is not JSON or has no type', () => {
    expect(() => parseTypedStreamEvent('{"type":', 'Acme')).toThrow(
      new UpstreamFormatError('Acme sent a stream event that is not JSON'),
    );
    for (const data of ['null', '[]', '{"type":3}', '"text"']) {
      expect(() => parseTypedStreamEvent(data, 'Acme')).toThrow('Acme sent a stream event without a type');
    }
  });
});
