import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCompactNumber, formatQuota, type DashboardData } from '@gatehouse/shared';
import { useQuotaDisplay } from '../users/use-quota-display';
import { formatMilliseconds, formatPercent } from './dashboard-format';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} mt={4}>
        {value}
      </Text>
    </Paper>
  );
}

/** The range's totals: requests, spend, tokens, error rate and latency percentiles. */
export function DashboardStats({ totals }: { totals: DashboardData['totals'] }) {
  const { t } = useTranslation();
  const display = useQuotaDisplay();
  const errorRate = totals.requests > 0 ? totals.errors / totals.requests : 0;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" mb="lg">
      <Stat label={t('dashboard.stat.requests')} value={totals.requests.toLocaleString()} />
      <Stat label={t('dashboard.stat.spend')} value={formatQuota(totals.quota, display)} />
      <Stat
        label={t('dashboard.stat.tokens')}
        value={formatCompactNumber(totals.prompt_tokens + totals.completion_tokens)}
      />
      <Stat label={t('dashboard.stat.errorRate')} value={formatPercent(errorRate)} />
      <Stat
        label={t('dashboard.stat.latency')}
        value={`${formatMilliseconds(totals.latency_p50_ms)} / ${formatMilliseconds(totals.latency_p95_ms)}`}
      />
    </SimpleGrid>
  );
}
