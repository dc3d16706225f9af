import { describe, expect, it } from 'vitest';
import { giveBackStartUpMemory } from './start-up-memory';

describe('giveBackStartUpMemory', () => {
  it('returns, and the event loop goes on running timers afterwards', async () => {
    await giveBackStartUpMemory();
    // Disconnecting the inspector session from inside its own callback once stalled the loop for good.
    const fired = await new Promise<boolean>((resolve) => {
      setTimeout(() => resolve(true), 20);
    });
    expect(fired).toBe(true);
  });

  it('can run again (each call has its own session)', async () => {
    await giveBackStartUpMemory();
    await giveBackStartUpMemory();
  });
});
