import { describe, expect, it } from 'vitest';
import { ExpiringEntries } from './expiring-entries';

const entry = (expiresAt: number, name = '') => ({ expiresAt, name });

describe('ExpiringEntries', () => {
  it('answers an entry until it expires, then drops it', () => {
    const entries = new ExpiringEntries<ReturnType<typeof entry>>(10);
    entries.add('a', entry(1000), 0);
    expect(entries.find('a', 999)?.expiresAt).toBe(1000);
    expect(entries.find('a', 1000)).toBeUndefined();
    expect(entries.size).toBe(0);
  });

  it('past its capacity drops expired entries first, then the oldest added; a re-added key counts as new', () => {
    const entries = new ExpiringEntries<ReturnType<typeof entry>>(10);
    entries.add('gone', entry(5), 0);
    for (let index = 0; index < 9; index += 1) entries.add(`k${index}`, entry(1000), 1);
    entries.add('k0', entry(1000, 'again'), 2);
    // Full: the expired entry makes the room.
    entries.add('new1', entry(1000), 10);
    expect(entries.find('gone', 10)).toBeUndefined();
    expect(entries.find('k1', 10)).toBeDefined();
    // Full of live entries: the oldest go, down to 90 % of the capacity.
    entries.add('new2', entry(1000), 10);
    expect(entries.size).toBe(10);
    expect(entries.find('k1', 10)).toBeUndefined();
    expect(entries.find('k2', 10)).toBeDefined();
    expect(entries.find('k0', 10)?.name).toBe('again');
    expect(entries.find('new1', 10)).toBeDefined();
    expect(entries.find('new2', 10)).toBeDefined();
  });

  it('holds its capacity at most however many keys are added', () => {
    const entries = new ExpiringEntries<ReturnType<typeof entry>>(1000);
    for (let index = 0; index < 50_000; index += 1) entries.add(`key${index}`, entry(60_000), index);
    expect(entries.size).toBeLessThanOrEqual(1000);
    expect(entries.find('key49999', 50_000)).toBeDefined();
  });

  it('sweeps expired entries as keys are added, before it is full', () => {
    const entries = new ExpiringEntries<ReturnType<typeof entry>>(100_000);
    for (let index = 0; index < 5000; index += 1) entries.add(`key${index}`, entry(index + 10), index);
    // Each entry lives 10 ms here: sweeps every 1000 adds keep the map near what is live.
    expect(entries.size).toBeLessThan(1100);
  });
});
