import { describe, expect, it } from 'vitest';
import { ChannelType } from './channel-types';
import { findBalanceCurrency, formatBalance } from './channel-balance';

describe('channel balances', () => {
  it('formats a balance in its vendor currency, the sign before the symbol', () => {
    expect(formatBalance(12.3, 'USD')).toBe('$12.30');
    expect(formatBalance(42.174, 'CNY')).toBe('¥42.17');
    expect(formatBalance(-0.5, 'USD')).toBe('-$0.50');
  });

  it('knows which types have no balance API', () => {
    expect(findBalanceCurrency(ChannelType.deepseek)).toBe('CNY');
    expect(findBalanceCurrency(ChannelType.anthropic)).toBeNull();
  });
});
