import { api } from '../../api/client';

/** POST /api/user/topup: data is the quota added. Quiet: the page words its own errors. */
export const redeemCode = (key: string) => api.post<number>('/api/user/topup', { key }, { quiet: true });

/** A random id for the payment page; `crypto.randomUUID` exists only on https and localhost. */
export function createTransactionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The top-up link opens with username, user_id and a random transaction_id. */
export function buildTopUpUrl(
  link: string,
  user: { id: number; username: string },
  transactionId: string,
): string {
  const url = new URL(link, window.location.origin);
  url.searchParams.set('username', user.username);
  url.searchParams.set('user_id', String(user.id));
  url.searchParams.set('transaction_id', transactionId);
  return url.toString();
}
