import { queryOptions } from '@tanstack/react-query';
import type { PriceList } from '@gatehouse/shared';
import { api } from '../../api/client';

export const pricingKeys = {
  all: ['pricing'] as const,
  list: () => [...pricingKeys.all, 'list'] as const,
};

export const priceListQueryOptions = () =>
  queryOptions({ queryKey: pricingKeys.list(), queryFn: () => api.get<PriceList>('/api/pricing') });

/** "$2.50", "$0.075" in currency (up to 4 decimals, at least 2); a whole quota count otherwise. */
export function formatPrice(price: number, list: Pick<PriceList, 'display_in_currency'>): string {
  if (!list.display_in_currency) return Math.round(price).toLocaleString('en-US');
  const text = String(Number(price.toFixed(4)));
  const [whole, decimals = ''] = text.split('.');
  return `$${whole}.${decimals.padEnd(2, '0')}`;
}
