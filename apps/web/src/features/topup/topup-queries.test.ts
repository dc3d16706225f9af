import { describe, expect, it } from 'vitest';
import { buildTopUpUrl, createTransactionId } from './topup-queries';

describe('the top-up link', () => {
  it('carries username, user_id and the transaction id, keeping the link own query', () => {
    const url = new URL(
      buildTopUpUrl('https://pay.example.com/buy?plan=basic', { id: 7, username: 'a b' }, 'tx1'),
    );
    expect(url.origin + url.pathname).toBe('https://pay.example.com/buy');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      plan: 'basic',
      username: 'a b',
      user_id: '7',
      transaction_id: 'tx1',
    });
  });

  it('draws a fresh 32-hex-digit transaction id each time', () => {
    const first = createTransactionId();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(createTransactionId()).not.toBe(first);
  });
});
