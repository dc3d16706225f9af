import { queryOptions } from '@tanstack/react-query';
import type { UserSession } from '@gatehouse/shared';
import { api } from '../../api/client';

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['users', 'self', 'sessions'],
    queryFn: () => api.get<UserSession[]>('/api/user/sessions'),
  });

export const endSession = (id: string) => api.del<null>(`/api/user/sessions/${encodeURIComponent(id)}`);
export const endOtherSessions = () => api.del<{ ended: number }>('/api/user/sessions');
