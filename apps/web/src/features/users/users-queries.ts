import { queryOptions } from '@tanstack/react-query';
import type { User } from '@gatehouse/shared';
import { api } from '../../api/client';

export const userKeys = {
  all: ['users'] as const,
  self: () => [...userKeys.all, 'self'] as const,
};

export const selfQueryOptions = () =>
  queryOptions({ queryKey: userKeys.self(), queryFn: () => api.get<User>('/api/user/self') });

export interface SelfUpdate {
  display_name: string;
  /** Blank keeps the current password. */
  password: string;
}

export const updateSelf = (update: SelfUpdate) => api.put<null>('/api/user/self', update);
