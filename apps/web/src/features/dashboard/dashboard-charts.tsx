import type { ReactNode } from 'react';
import { BarChart, CompositeChart } from '@mantine/charts';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCompactNumber, type DashboardData } from '@gatehouse/shared';
import { useQuotaDisplay } from '../users/use-quota-display';
import { formatBucket, formatChartQuota, quotaToChartValue } from './dashboard-format';

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text fw={600} mb="sm">
        {title}
      </Text>
      {children}
    </Paper>
  );
}

/** Spend, requests (answered and failed) and tokens over the range, one point per bucket. */
export function DashboardCharts({ data }: { data: DashboardData }) {
  const { t } = useTranslation();
  const display = useQuotaDisplay();
  // Hours of two dates are labelled with their date, so no label repeats (23:00 yesterday and 23:00 today).
  const first = data.series[0]?.bucket_start ?? data.start;
  const last = data.series[data.series.length - 1]?.bucket_start ?? data.end;
  const spansDays = new Date(first * 1000).toDateString() !== new Date(last * 1000).toDateString();
  const points = data.series.map((point) => ({
    bucket: formatBucket(point.bucket_start, data.granularity, spansDays),
    spend: quotaToChartValue(point.quota, display),
    answered: point.requests - point.errors,
    failed: point.errors,
    prompt: point.prompt_tokens,
    completion: point.completion_tokens,
  }));
  // Areas through CompositeChart: Mantine's AreaChart wraps each area in a Fragment, which recharts 2.15 (its
  // react-is 18) does not recognise under React 19, so it drew no area and no axis. Keep until react-is 19.
  const common = { h: 220, data: points, dataKey: 'bucket', withDots: false, curveType: 'monotone' } as const;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" mb="lg">
      <ChartCard title={t('dashboard.chart.spend')}>
        <CompositeChart
          {...common}
          valueFormatter={(value) => formatChartQuota(value, display)}
          series={[{ name: 'spend', label: t('dashboard.stat.spend'), color: 'teal.6', type: 'area' }]}
        />
      </ChartCard>
      <ChartCard title={t('dashboard.chart.requests')}>
        <BarChart
          h={220}
          data={points}
          dataKey="bucket"
          type="stacked"
          valueFormatter={formatCompactNumber}
          series={[
            { name: 'answered', label: t('dashboard.series.answered'), color: 'blue.6' },
            { name: 'failed', label: t('dashboard.series.failed'), color: 'red.6' },
          ]}
        />
      </ChartCard>
      <ChartCard title={t('dashboard.chart.tokens')}>
        <CompositeChart
          {...common}
          valueFormatter={formatCompactNumber}
          areaProps={{ stackId: 'tokens' }}
          series={[
            { name: 'prompt', label: t('dashboard.series.prompt'), color: 'indigo.6', type: 'area' },
            { name: 'completion', label: t('dashboard.series.completion'), color: 'orange.6', type: 'area' },
          ]}
        />
      </ChartCard>
    </SimpleGrid>
  );
}
