import { describe, expect, it } from 'vitest';
import { ToolCallNumbering } from './tool-call-numbering';

describe('ToolCallNumbering', () => {
  it('numbers calls in the order they start, whatever the upstream keys', () => {
    const numbering = new ToolCallNumbering();
    expect(numbering.start(3)).toBe(0);
    expect(numbering.start(1)).toBe(1);
    expect(numbering.find(3)).toBe(0);
    expect(numbering.find(2)).toBeUndefined();
  });

  it('reads a call head, then its arguments under the same key', () => {
    const numbering = new ToolCallNumbering();
    expect(numbering.delta(5, { id: 'call_a', name: 'get', arguments: '{"a"' })).toEqual({
      index: 0,
      id: 'call_a',
      type: 'function',
      function: { name: 'get', arguments: '{"a"' },
    });
    expect(numbering.delta(5, { id: '', name: '', arguments: ':1}' })).toEqual({
      index: 0,
      function: { arguments: ':1}' },
    });
    expect(numbering.delta(6, { id: 'call_b', name: 'put', arguments: '{}' }).index).toBe(1);
    expect(numbering.delta(5, { id: 'call_a', name: 'get', arguments: '' }).index).toBe(0);
  });
});
