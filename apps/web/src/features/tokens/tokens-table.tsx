import { useMemo } from 'react';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  formatRemainingQuota,
  formatTimestamp,
  NEVER_EXPIRES,
  tokenStatusBadges,
  type QuotaDisplay,
  type Token,
} from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { TokenRowActions } from './token-row-actions';
import type { TokenActions } from './use-token-actions';
import { StatusBadge } from '../../components/status-badge';
import { LimitsSummary } from '../../components/limits/limits-summary';

// Table cells shrink to their content's narrowest width; a badge would otherwise be cut to "Ena…".
const NO_SHRINK = { minWidth: 'max-content' };

/** The key list's columns: name, status, used / remaining quota, limits, created, expires, actions. */
export function useTokenColumns(actions: TokenActions, quotaDisplay: QuotaDisplay): DataTableColumn<Token>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const header = (key: string) => t(`tokens.column.${key}`);
    const quota = (value: number) => formatRemainingQuota(value, quotaDisplay);
    return [
      {
        key: 'name',
        header: header('name'),
        render: (token) => (
          <Text size="sm" fw={500} lineClamp={1} title={token.name}>
            {token.name}
          </Text>
        ),
        sortValue: (token) => token.name,
      },
      {
        key: 'status',
        header: header('status'),
        render: (token) => <StatusBadge map={tokenStatusBadges} value={token.status} />,
        sortValue: (token) => token.status,
      },
      {
        key: 'used',
        header: header('usedQuota'),
        render: (token) => quota(token.used_quota),
        sortValue: (token) => token.used_quota,
      },
      {
        key: 'remain',
        header: header('remainQuota'),
        render: (token) =>
          token.unlimited_quota ? (
            <Badge color="gray" variant="outline" tt="none" style={NO_SHRINK}>
              {t('tokens.unlimited')}
            </Badge>
          ) : (
            quota(token.remain_quota)
          ),
        sortValue: (token) => (token.unlimited_quota ? Number.MAX_SAFE_INTEGER : token.remain_quota),
      },
      {
        key: 'limits',
        header: header('limits'),
        render: (token) => <LimitsSummary limits={token} modelLimits={token.model_limits} />,
      },
      {
        key: 'created',
        header: header('createdTime'),
        render: (token) => <Text size="sm">{formatTimestamp(token.created_time)}</Text>,
        sortValue: (token) => token.created_time,
      },
      {
        key: 'expires',
        header: header('expiredTime'),
        render: (token) => (
          <Text size="sm">
            {token.expired_time === NEVER_EXPIRES
              ? t('tokens.neverExpires')
              : formatTimestamp(token.expired_time)}
          </Text>
        ),
        sortValue: (token) =>
          token.expired_time === NEVER_EXPIRES ? Number.MAX_SAFE_INTEGER : token.expired_time,
      },
      {
        key: 'actions',
        header: header('actions'),
        render: (token) => <TokenRowActions token={token} actions={actions} />,
      },
    ];
  }, [t, actions, quotaDisplay]);
}
