import { Paper, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatQuota, type DashboardChannelHealth } from '@gatehouse/shared';
import { useQuotaDisplay } from '../users/use-quota-display';
import { formatMilliseconds, formatPercent } from './dashboard-format';

/** Admins: each channel's requests, error rate and latency percentiles; scrolls sideways on a phone. */
export function DashboardChannelHealthTable({ channels }: { channels: DashboardChannelHealth[] }) {
  const { t } = useTranslation();
  const display = useQuotaDisplay();
  return (
    <Paper withBorder p="md" radius="md" mb="lg">
      <Text fw={600} mb="sm">
        {t('dashboard.channelHealth')}
      </Text>
      {channels.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('dashboard.noData')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dashboard.column.channel')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.column.requests')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.column.errorRate')}</Table.Th>
                <Table.Th ta="right">p50</Table.Th>
                <Table.Th ta="right">p95</Table.Th>
                <Table.Th ta="right">{t('dashboard.column.average')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.column.firstToken')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.column.spend')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {channels.map((channel) => (
                <Table.Tr key={channel.channel_id}>
                  <Table.Td>
                    {channel.name}{' '}
                    <Text span c="dimmed" size="xs">
                      #{channel.channel_id}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{channel.requests.toLocaleString()}</Table.Td>
                  <Table.Td ta="right" c={channel.error_rate >= 0.05 ? 'red' : undefined}>
                    {formatPercent(channel.error_rate)}
                  </Table.Td>
                  <Table.Td ta="right">{formatMilliseconds(channel.latency_p50_ms)}</Table.Td>
                  <Table.Td ta="right">{formatMilliseconds(channel.latency_p95_ms)}</Table.Td>
                  <Table.Td ta="right">{formatMilliseconds(channel.latency_avg_ms)}</Table.Td>
                  <Table.Td ta="right">
                    {channel.first_token_p50_ms === null
                      ? '–'
                      : `${formatMilliseconds(channel.first_token_p50_ms)} / ${formatMilliseconds(channel.first_token_p95_ms)}`}
                  </Table.Td>
                  <Table.Td ta="right">{formatQuota(channel.quota, display)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
