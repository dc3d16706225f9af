import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { User } from '@gatehouse/shared';
import { userKeys } from './users-queries';

type ListData = InfiniteData<User[]> | User[] | undefined;

function patchRows(rows: User[], username: string, patch: Partial<User> | null): User[] {
  return patch === null
    ? rows.filter((row) => row.username !== username)
    : rows.map((row) => (row.username === username ? { ...row, ...patch } : row));
}

/**
 * Applies the answer of a manage action to every loaded list and search page, without refetching: the new
 * status and role from the server, or the row hidden when it was deleted.
 */
export function patchUserInLists(
  queryClient: QueryClient,
  username: string,
  patch: Partial<User> | null,
): void {
  queryClient.setQueriesData<ListData>({ queryKey: [...userKeys.all, 'list'] }, (data) => {
    if (!data) return data;
    if (Array.isArray(data)) return patchRows(data, username, patch);
    return { ...data, pages: data.pages.map((page) => patchRows(page, username, patch)) };
  });
}
