import { describe, expect, it } from 'vitest';
import { KeyCache } from './key-cache';

interface Row {
  user_id: number;
  name: string;
}

/** A lookup the test answers when it wants, counting how often it was asked. */
function controlledRead() {
  const answers: Array<(row: Row | null) => void> = [];
  const read = (_key: string) => new Promise<Row | null>((resolve) => answers.push(resolve));
  return { read, answers };
}

describe('KeyCache.get', () => {
  it('asks the database once for the requests that come while the lookup runs, then serves the row', async () => {
    const cache = new KeyCache<Row>();
    const { read, answers } = controlledRead();
    const first = cache.get('k', read);
    const second = cache.get('k', read);
    expect(answers).toHaveLength(1);
    answers[0]({ user_id: 1, name: 'a' });
    expect(await first).toEqual({ user_id: 1, name: 'a' });
    expect(await second).toBe(await first);
    expect(await cache.get('k', read)).toBe(await first);
    expect(answers).toHaveLength(1);
  });

  it('asks again for a key nobody has (nothing is remembered of a miss)', async () => {
    const cache = new KeyCache<Row>();
    const { read, answers } = controlledRead();
    const first = cache.get('unknown', read);
    answers[0](null);
    expect(await first).toBeNull();
    void cache.get('unknown', read);
    expect(answers).toHaveLength(2);
  });

  it('does not keep or share a row read before the keys were dropped (another instance changed them)', async () => {
    const cache = new KeyCache<Row>();
    const { read, answers } = controlledRead();
    const before = cache.get('k', read);
    cache.clear();
    const after = cache.get('k', read);
    expect(answers).toHaveLength(2);
    answers[0]({ user_id: 1, name: 'old' });
    answers[1]({ user_id: 1, name: 'new' });
    expect((await before)?.name).toBe('old');
    expect((await after)?.name).toBe('new');
    expect((await cache.get('k', read))?.name).toBe('new');
  });

  it('does not keep a row read before its user was changed', async () => {
    const cache = new KeyCache<Row>();
    const { read, answers } = controlledRead();
    const before = cache.get('k', read);
    cache.forgetUser(1);
    answers[0]({ user_id: 1, name: 'old' });
    await before;
    void cache.get('k', read);
    expect(answers).toHaveLength(2);
  });
});
