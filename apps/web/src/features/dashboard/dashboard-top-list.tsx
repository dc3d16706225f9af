import { Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatQuota, type DashboardTopEntry } from '@gatehouse/shared';
import { useQuotaDisplay } from '../users/use-quota-display';

interface DashboardTopListProps {
  title: string;
  entries: DashboardTopEntry[];
  /** how an entry is named (a key with its owner, for instance) */
  nameOf?: (entry: DashboardTopEntry) => string;
}

/** A ranked list by spend, each row with its share of the first as a bar: readable at any width. */
export function DashboardTopList({ title, entries, nameOf = (entry) => entry.name }: DashboardTopListProps) {
  const { t } = useTranslation();
  const display = useQuotaDisplay();
  const top = Math.max(1, ...entries.map((entry) => entry.quota));
  return (
    <Paper withBorder p="md" radius="md">
      <Text fw={600} mb="sm">
        {title}
      </Text>
      {entries.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('dashboard.noData')}
        </Text>
      ) : (
        <Stack gap="xs">
          {entries.map((entry) => (
            <div key={`${entry.username ?? ''}/${entry.channel_id ?? ''}/${entry.name}`}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate="end" title={nameOf(entry)}>
                  {nameOf(entry) || t('dashboard.unnamed')}
                </Text>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatQuota(entry.quota, display)} ·{' '}
                  {t('dashboard.requestCount', { count: entry.requests })}
                </Text>
              </Group>
              <Progress value={(entry.quota / top) * 100} size="sm" mt={4} aria-hidden />
            </div>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
