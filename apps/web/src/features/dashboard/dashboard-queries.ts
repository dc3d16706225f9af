import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { DashboardData, DashboardGranularity } from '@gatehouse/shared';
import { api } from '../../api/client';

export interface DashboardParams {
  start: number;
  end: number;
  granularity: DashboardGranularity;
  scope: 'self' | 'all';
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  view: (params: DashboardParams) => [...dashboardKeys.all, params] as const,
};

export const dashboardQueryOptions = (params: DashboardParams) =>
  queryOptions({
    queryKey: dashboardKeys.view(params),
    queryFn: () =>
      api.get<DashboardData>(
        `/api/dashboard?${new URLSearchParams({
          start: String(params.start),
          end: String(params.end),
          granularity: params.granularity,
          scope: params.scope,
        }).toString()}`,
      ),
    placeholderData: keepPreviousData,
  });
