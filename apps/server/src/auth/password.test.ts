import { describe, expect, it } from 'vitest';
import { giveBackStartUpMemory } from '../start-up-memory';
import { randomText } from './password';

describe('randomText', () => {
  it('answers text of the length asked, from the alphabet given', () => {
    expect(randomText(32)).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{32}$/);
    expect(randomText(6, '0123456789')).toMatch(/^\d{6}$/);
  });

  it('answers flat text: kept as a Map key (an OAuth state), it costs its characters, not one node each', async () => {
    const held = new Map<string, number>();
    await giveBackStartUpMemory();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 20_000; index += 1) held.set(randomText(32), index);
    await giveBackStartUpMemory();
    const perText = (process.memoryUsage().heapUsed - before) / held.size;
    // Flat: ~48 bytes and the Map's slot. Built by += it was a rope of 20 nodes (~640 bytes) for good.
    expect(perText).toBeLessThan(250);
  });
});
