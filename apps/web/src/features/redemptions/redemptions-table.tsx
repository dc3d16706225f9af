import { useMemo } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  formatRemainingQuota,
  formatTimestamp,
  redemptionStatusBadges,
  type QuotaDisplay,
  type Redemption,
} from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { RedemptionRowActions } from './redemption-row-actions';
import type { RedemptionActions } from './use-redemption-actions';
import { StatusBadge } from '../../components/status-badge';

// Table cells shrink to their content's narrowest width; a badge would otherwise be cut to "Ena…".

export function useRedemptionColumns(
  actions: RedemptionActions,
  quotaDisplay: QuotaDisplay,
): DataTableColumn<Redemption>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const header = (key: string) => t(`redemptions.column.${key}`);
    return [
      {
        key: 'id',
        header: header('id'),
        render: (redemption) => redemption.id,
        sortValue: (redemption) => redemption.id,
        width: 64,
      },
      {
        key: 'name',
        header: header('name'),
        render: (redemption) => (
          <Text size="sm" fw={500} lineClamp={1} title={redemption.name}>
            {redemption.name}
          </Text>
        ),
        sortValue: (redemption) => redemption.name,
      },
      {
        key: 'status',
        header: header('status'),
        render: (redemption) => <StatusBadge map={redemptionStatusBadges} value={redemption.status} />,
        sortValue: (redemption) => redemption.status,
      },
      {
        key: 'quota',
        header: header('quota'),
        render: (redemption) => formatRemainingQuota(redemption.quota, quotaDisplay),
        sortValue: (redemption) => redemption.quota,
      },
      {
        key: 'created',
        header: header('createdTime'),
        render: (redemption) => <Text size="sm">{formatTimestamp(redemption.created_time)}</Text>,
        sortValue: (redemption) => redemption.created_time,
      },
      {
        key: 'redeemed',
        header: header('redeemedTime'),
        render: (redemption) => (
          <Text size="sm" c={redemption.redeemed_time ? undefined : 'dimmed'}>
            {redemption.redeemed_time
              ? formatTimestamp(redemption.redeemed_time)
              : t('redemptions.notRedeemed')}
          </Text>
        ),
        sortValue: (redemption) => redemption.redeemed_time,
      },
      {
        key: 'actions',
        header: header('actions'),
        render: (redemption) => <RedemptionRowActions redemption={redemption} actions={actions} />,
      },
    ];
  }, [t, actions, quotaDisplay]);
}
