import { describe, expect, it } from 'vitest';
import { MemoryOAuthStateStore } from './oauth-state-store';

describe('MemoryOAuthStateStore', () => {
  it('hands a state out once, and never after it expired', async () => {
    const store = new MemoryOAuthStateStore();
    await store.save('once', { userId: 7, oidc: { verifier: 'v', nonce: 'n' } }, 60_000);
    await store.save('short', { userId: 0 }, 1);
    expect(await store.take('once')).toEqual({ userId: 7, oidc: { verifier: 'v', nonce: 'n' } });
    expect(await store.take('once')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.take('short')).toBeNull();
  });

  it('holds at most its capacity of states however many are asked for; the oldest go first', async () => {
    // Anyone may ask for a state (GET /api/oauth/state), from as many addresses as they have.
    const store = new MemoryOAuthStateStore(100);
    for (let index = 0; index < 1000; index += 1) await store.save(`state${index}`, { userId: 0 }, 600_000);
    expect(store.size).toBeLessThanOrEqual(100);
    expect(await store.take('state999')).toEqual({ userId: 0 });
    expect(await store.take('state0')).toBeNull();
  });
});
