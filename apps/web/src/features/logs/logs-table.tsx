import { useMemo } from 'react';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  formatLogQuota,
  formatTimestamp,
  logTypeBadges,
  type Log,
  type QuotaDisplay,
} from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';

// Table cells shrink to their content's narrowest width; a badge would otherwise be cut to "Consu…".
const NO_SHRINK = { minWidth: 'max-content' };

/** The usage log table; admins also see the user and the channel of each row. */
export function useLogColumns(isAdmin: boolean, quotaDisplay: QuotaDisplay): DataTableColumn<Log>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const header = (key: string) => t(`logs.column.${key}`);
    const columns: Array<DataTableColumn<Log> & { adminOnly?: boolean }> = [
      {
        key: 'time',
        header: header('time'),
        render: (log) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatTimestamp(log.created_at)}
          </Text>
        ),
        sortValue: (log) => log.created_at,
      },
      {
        key: 'channel',
        header: header('channel'),
        render: (log) => (log.channel ? log.channel : ''),
        sortValue: (log) => log.channel,
        adminOnly: true,
      },
      {
        key: 'username',
        header: header('username'),
        render: (log) => log.username,
        sortValue: (log) => log.username,
        adminOnly: true,
      },
      {
        key: 'token',
        header: header('tokenName'),
        render: (log) => log.token_name,
        sortValue: (log) => log.token_name,
      },
      {
        key: 'type',
        header: header('type'),
        render: (log) => <StatusBadge map={logTypeBadges} value={log.type} />,
        sortValue: (log) => log.type,
      },
      {
        key: 'model',
        header: header('modelName'),
        render: (log) =>
          log.model_name && (
            <Group gap={4} wrap="nowrap">
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {log.model_name}
              </Text>
              {log.is_stream && (
                <Badge size="xs" variant="outline" color="gray" tt="none" style={NO_SHRINK}>
                  {t('logs.stream')}
                </Badge>
              )}
            </Group>
          ),
        sortValue: (log) => log.model_name,
      },
      {
        key: 'prompt',
        header: header('promptTokens'),
        render: (log) => (log.prompt_tokens ? log.prompt_tokens : ''),
        sortValue: (log) => log.prompt_tokens,
      },
      {
        key: 'completion',
        header: header('completionTokens'),
        render: (log) => (log.completion_tokens ? log.completion_tokens : ''),
        sortValue: (log) => log.completion_tokens,
      },
      {
        key: 'quota',
        header: header('quota'),
        render: (log) => (log.quota ? formatLogQuota(log.quota, quotaDisplay) : ''),
        sortValue: (log) => log.quota,
      },
      {
        key: 'content',
        header: header('content'),
        render: (log) => (
          <Tooltip
            label={log.content}
            multiline
            maw={420}
            openDelay={50}
            closeDelay={70}
            disabled={!log.content}
          >
            <Text size="sm" lineClamp={2} maw={360}>
              {log.content}
            </Text>
          </Tooltip>
        ),
      },
    ];
    return columns.filter((column) => isAdmin || !column.adminOnly);
  }, [t, isAdmin, quotaDisplay]);
}
