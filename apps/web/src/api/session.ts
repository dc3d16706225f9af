import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@gatehouse/shared';
import { StorageKey } from './storage';

// The stored login result (`user`) is the console's whole notion of "logged in": the guard, the
// menu and the header read it through this store so they re-render together when it changes.
const listeners = new Set<() => void>();
let snapshot: { raw: string | null; user: User | null } = { raw: null, user: null };

export function getStoredUser(): User | null {
  const raw = localStorage.getItem(StorageKey.user);
  if (raw !== snapshot.raw) snapshot = { raw, user: parseUser(raw) };
  return snapshot.user;
}

function parseUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && 'username' in value ? (value as User) : null;
  } catch {
    return null;
  }
}

let hasExpired = false;

export function setStoredUser(user: User): void {
  hasExpired = false;
  localStorage.setItem(StorageKey.user, JSON.stringify(user));
  notify();
}

export function clearStoredUser(): void {
  localStorage.removeItem(StorageKey.user);
  notify();
}

/**
 * The server no longer knows the session (HTTP 401). The guard of the page on screen redirects as soon as the
 * stored user is gone, racing the API client's own redirect; it reads this flag so both land on the same URL.
 */
export function expireStoredUser(): void {
  hasExpired = true;
  clearStoredUser();
}

export const hasSessionExpired = (): boolean => hasExpired;

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Logging in or out in another tab changes this tab's state too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === StorageKey.user || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useStoredUser(): User | null {
  return useSyncExternalStore(subscribe, getStoredUser);
}

/** Drops every cached answer that belongs to the previous user; the public server status stays. */
export function forgetUserQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
}
