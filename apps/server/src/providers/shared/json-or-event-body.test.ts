import { describe, expect, it } from 'vitest';
import { JsonOrEventBody } from './json-or-event-body';

describe('JsonOrEventBody', () => {
  it('passes an event stream on, even after leading whitespace', () => {
    const body = new JsonOrEventBody();
    expect(body.holdJson(Buffer.from('\r\n '))).toBe(false);
    expect(body.holdJson(Buffer.from('data: {"a":1}\n\n'))).toBe(false);
    expect(body.holdJson(Buffer.from('{'))).toBe(false);
    expect(body.json()).toBeNull();
  });

  it('holds a JSON answer whole until the end', () => {
    const body = new JsonOrEventBody();
    expect(body.holdJson(Buffer.from('  {"id":'))).toBe(true);
    expect(body.holdJson(Buffer.from('"x"}'))).toBe(true);
    expect(body.json()?.toString()).toBe('  {"id":"x"}');
  });
});
