import { describe, expect, it } from 'vitest';
import { MAX_ROWS_PER_STATEMENT, chunkSizes } from './precompiled-rows';

describe('chunkSizes', () => {
  it('splits a batch into powers of two, at most 64 rows each, covering every row once', () => {
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(7)).toEqual([4, 2, 1]);
    expect(chunkSizes(64)).toEqual([64]);
    expect(chunkSizes(70)).toEqual([64, 4, 2]);
    expect(chunkSizes(200)).toEqual([64, 64, 64, 8]);
  });

  it('uses at most seven sizes over all counts, so each shape compiles at most seven statements', () => {
    const sizes = new Set<number>();
    for (let count = 0; count <= 1000; count += 1) {
      const chunks = chunkSizes(count);
      expect(chunks.reduce((sum, size) => sum + size, 0)).toBe(count);
      for (const size of chunks) sizes.add(size);
    }
    expect([...sizes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, MAX_ROWS_PER_STATEMENT]);
  });
});
