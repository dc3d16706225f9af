import { ChannelType } from './channel-types';

export type BalanceCurrency = 'USD' | 'CNY';

/**
 * Channel types whose vendor publishes a balance endpoint, with the currency it answers in. Keep in sync with
 * the server's balance readers (apps/server/src/channels/balance/balance-readers.ts; a test compares them).
 */
export const channelBalanceCurrencies: Readonly<Partial<Record<number, BalanceCurrency>>> = {
  [ChannelType.openai]: 'USD',
  [ChannelType.custom]: 'USD',
  [ChannelType.closeai]: 'USD',
  [ChannelType.api2gpt]: 'USD',
  [ChannelType.aigc2d]: 'USD',
  [ChannelType.openRouter]: 'USD',
  [ChannelType.deepseek]: 'CNY',
  [ChannelType.siliconFlow]: 'CNY',
  [ChannelType.moonshot]: 'CNY',
};

/** The currency of the type's balance, or null when its vendor has no balance API. */
export function findBalanceCurrency(type: number): BalanceCurrency | null {
  return channelBalanceCurrencies[type] ?? null;
}

/** "$12.30", "¥42.17", "-$0.50" (an overdrawn account). */
export function formatBalance(balance: number, currency: BalanceCurrency): string {
  const sign = balance < 0 ? '-' : '';
  return `${sign}${currency === 'USD' ? '$' : '¥'}${Math.abs(balance).toFixed(2)}`;
}
