import { describe, expect, it } from 'vitest';
import type { PreparedCredential } from '../canonical/translation';
import { CredentialCache } from './credential-cache';

const MINUTE = 60_000;

/** A token endpoint under test control: each call waits until `answer` or `fail` is called. */
function tokenEndpoint(now: () => number, lifetimeMs: number) {
  let calls = 0;
  const pending: Array<{
    resolve: (credential: PreparedCredential) => void;
    reject: (error: Error) => void;
  }> = [];
  return {
    get calls() {
      return calls;
    },
    prepare: () =>
      new Promise<PreparedCredential>((resolve, reject) => {
        calls += 1;
        pending.push({ resolve, reject });
      }),
    answer() {
      const next = pending.shift();
      next?.resolve({ accessToken: `token-${calls}`, expiresAt: now() + lifetimeMs });
    },
    fail() {
      pending.shift()?.reject(new Error('token endpoint down'));
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CredentialCache', () => {
  it('runs one refresh for twenty concurrent requests, and they all get its token', async () => {
    let time = 0;
    const cache = new CredentialCache(() => time);
    const endpoint = tokenEndpoint(() => time, 60 * MINUTE);
    const waiting = Array.from({ length: 20 }, () => cache.getAccessToken('channel', endpoint.prepare));
    await settle();
    expect(endpoint.calls).toBe(1);
    endpoint.answer();
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['token-1']));
    time += 30 * MINUTE;
    expect(await cache.getAccessToken('channel', endpoint.prepare)).toBe('token-1');
    expect(endpoint.calls).toBe(1);
  });

  it('refreshes a little before expiry while requests keep the current token', async () => {
    let time = 0;
    const cache = new CredentialCache(() => time);
    const endpoint = tokenEndpoint(() => time, 60 * MINUTE);
    const first = cache.getAccessToken('channel', endpoint.prepare);
    endpoint.answer();
    expect(await first).toBe('token-1');

    time += 56 * MINUTE; // inside the last five minutes
    expect(await cache.getAccessToken('channel', endpoint.prepare)).toBe('token-1');
    expect(await cache.getAccessToken('channel', endpoint.prepare)).toBe('token-1');
    expect(endpoint.calls).toBe(2);
    endpoint.answer();
    await settle();
    expect(await cache.getAccessToken('channel', endpoint.prepare)).toBe('token-2');
    expect(endpoint.calls).toBe(2);
  });

  it('refreshes a short-lived token halfway through its life', async () => {
    let time = 0;
    const cache = new CredentialCache(() => time);
    const endpoint = tokenEndpoint(() => time, 2 * MINUTE);
    const first = cache.getAccessToken('channel', endpoint.prepare);
    endpoint.answer();
    await first;
    time += 0.9 * MINUTE;
    await cache.getAccessToken('channel', endpoint.prepare);
    expect(endpoint.calls).toBe(1);
    time += 0.2 * MINUTE;
    await cache.getAccessToken('channel', endpoint.prepare);
    expect(endpoint.calls).toBe(2);
  });

  it('makes requests wait for a new token once the old one has expired', async () => {
    let time = 0;
    const cache = new CredentialCache(() => time);
    const endpoint = tokenEndpoint(() => time, 10 * MINUTE);
    const first = cache.getAccessToken('channel', endpoint.prepare);
    endpoint.answer();
    await first;
    time += 11 * MINUTE;
    const second = cache.getAccessToken('channel', endpoint.prepare);
    let isDone = false;
    void second.then(() => (isDone = true));
    await settle();
    expect(isDone).toBe(false);
    endpoint.answer();
    expect(await second).toBe('token-2');
  });

  it('does not remember a failed refresh: everyone waiting gets the error, the next request tries again', async () => {
    const time = 0;
    const cache = new CredentialCache(() => time);
    const endpoint = tokenEndpoint(() => time, 60 * MINUTE);
    const waiting = [
      cache.getAccessToken('channel', endpoint.prepare),
      cache.getAccessToken('channel', endpoint.prepare),
    ];
    await settle();
    endpoint.fail();
    for (const request of waiting) await expect(request).rejects.toThrow('token endpoint down');
    const retry = cache.getAccessToken('channel', endpoint.prepare);
    await settle();
    expect(endpoint.calls).toBe(2);
    endpoint.answer();
    expect(await retry).toBe('token-2');
  });

  it('keeps using a still-valid token when its early refresh fails', async () => {
    let time = 0;
    const cache = new CredentialCache(() => time);
    const endpoint = tokenEndpoint(() => time, 60 * MINUTE);
    const first = cache.getAccessToken('channel', endpoint.prepare);
    endpoint.answer();
    await first;
    time += 58 * MINUTE;
    expect(await cache.getAccessToken('channel', endpoint.prepare)).toBe('token-1');
    endpoint.fail();
    await settle();
    expect(await cache.getAccessToken('channel', endpoint.prepare)).toBe('token-1');
    expect(endpoint.calls).toBe(3);
  });

  it('keeps credentials of different channels apart', async () => {
    const cache = new CredentialCache(() => 0);
    const one = tokenEndpoint(() => 0, 60 * MINUTE);
    const two = tokenEndpoint(() => 0, 60 * MINUTE);
    const first = cache.getAccessToken('one', one.prepare);
    const second = cache.getAccessToken('two', two.prepare);
    one.answer();
    two.answer();
    expect([await first, await second]).toEqual(['token-1', 'token-1']);
    expect([one.calls, two.calls]).toEqual([1, 1]);
  });
});
