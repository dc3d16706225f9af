import '@mantine/charts/styles.css';
import { useState } from 'react';
import { Alert, Button, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isAdminRole, type DashboardGranularity } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { PageTitle } from '../../components/page-title';
import { DashboardChannelHealthTable } from './dashboard-channel-health';
import { DashboardCharts } from './dashboard-charts';
import { DashboardControls, DASHBOARD_RANGES, RANGE_DAYS, type DashboardRange } from './dashboard-controls';
import { dashboardQueryOptions } from './dashboard-queries';
import { DashboardStats } from './dashboard-stats';
import { DashboardTopList } from './dashboard-top-list';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The range, bucket size and scope live in the URL, so a view can be bookmarked and shared. */
function useDashboardUrlState(isAdmin: boolean) {
  const [params, setParams] = useSearchParams();
  const rangeParam = params.get('range');
  const range: DashboardRange = DASHBOARD_RANGES.includes(rangeParam as DashboardRange)
    ? (rangeParam as DashboardRange)
    : '24h';
  const granularity: DashboardGranularity = params.get('granularity') === 'day' ? 'day' : 'hour';
  const scope: 'self' | 'all' = isAdmin && params.get('scope') === 'all' ? 'all' : 'self';
  const change = (
    next: Partial<{ range: DashboardRange; granularity: DashboardGranularity; scope: 'self' | 'all' }>,
  ) => {
    const merged = { range, granularity, scope, ...next };
    setParams(
      { range: merged.range, granularity: merged.granularity, scope: merged.scope },
      { replace: true },
    );
  };
  return { range, granularity, scope, change };
}

function LoadingState() {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} h={76} radius="md" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <Skeleton h={270} radius="md" />
        <Skeleton h={270} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" radius="md" ta="center">
      <Text fw={600}>{t('dashboard.empty.title')}</Text>
      <Text c="dimmed" size="sm" mt="xs" mb="md">
        {t('dashboard.empty.hint')}
      </Text>
      <Button component={Link} to="/token" variant="light">
        {t('dashboard.empty.action')}
      </Button>
    </Paper>
  );
}

/** The signed-in home: usage over time, top models and keys, and for admins the channels' health. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const isAdmin = user !== null && isAdminRole(user.role);
  const { range, granularity, scope, change } = useDashboardUrlState(isAdmin);
  const [end, setEnd] = useState(nowSeconds);
  const start = end - RANGE_DAYS[range] * 86_400;
  const dashboard = useQuery(dashboardQueryOptions({ start, end, granularity, scope }));
  const data = dashboard.data;

  return (
    <>
      <PageTitle
        title={t('dashboard.title')}
        description={t(scope === 'all' ? 'dashboard.descriptionAll' : 'dashboard.description')}
      />
      <DashboardControls
        range={range}
        granularity={granularity}
        scope={scope}
        isAdmin={isAdmin}
        isRefreshing={dashboard.isFetching && !dashboard.isPending}
        onChange={(next) => {
          change(next);
          setEnd(nowSeconds());
        }}
        onRefresh={() => setEnd(nowSeconds())}
      />
      {dashboard.isError && !data ? (
        <Alert color="red">{dashboard.error.message}</Alert>
      ) : !data ? (
        <LoadingState />
      ) : (
        <>
          <DashboardStats totals={data.totals} />
          {data.totals.requests === 0 ? (
            <EmptyState />
          ) : (
            <>
              <DashboardCharts data={data} />
              <SimpleGrid cols={{ base: 1, md: data.top_channels ? 3 : 2 }} spacing="sm" mb="lg">
                <DashboardTopList title={t('dashboard.topModels')} entries={data.top_models} />
                <DashboardTopList
                  title={t('dashboard.topKeys')}
                  entries={data.top_keys}
                  nameOf={(entry) => (entry.username ? `${entry.username} / ${entry.name}` : entry.name)}
                />
                {data.top_channels && (
                  <DashboardTopList title={t('dashboard.topChannels')} entries={data.top_channels} />
                )}
              </SimpleGrid>
              {data.channels && <DashboardChannelHealthTable channels={data.channels} />}
            </>
          )}
        </>
      )}
    </>
  );
}
