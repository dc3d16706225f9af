import { describe, expect, it } from 'vitest';
import { entryOf, newMap, newWeakMap } from './map-entry';

describe('entryOf', () => {
  it('makes and stores the value once, then answers the stored one', () => {
    const outer = new Map<string, Map<number, string>>();
    const inner = entryOf(outer, 'a', newMap);
    inner.set(1, 'one');
    expect(entryOf(outer, 'a', newMap)).toBe(inner);
    expect(entryOf(outer, 'b', newMap)).not.toBe(inner);
    expect(outer.size).toBe(2);
    const weak = new WeakMap<object, WeakMap<object, string>>();
    const key = {};
    expect(entryOf(weak, key, newWeakMap)).toBe(entryOf(weak, key, newWeakMap));
  });
});
