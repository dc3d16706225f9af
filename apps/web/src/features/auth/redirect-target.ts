import type { Location } from 'react-router';

export const DEFAULT_LOGIN_DESTINATION = '/token';

/** Where to go after logging in: the page the guard turned the visitor away from, else their keys. */
export function redirectTarget(state: unknown): string {
  const from = (state as { from?: Partial<Location> } | null)?.from;
  if (!from?.pathname || from.pathname === '/login') return DEFAULT_LOGIN_DESTINATION;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
