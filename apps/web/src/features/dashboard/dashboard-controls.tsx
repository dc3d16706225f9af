import { Group, SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardGranularity } from '@gatehouse/shared';
import { RefreshButton } from '../../components/refresh-button';

export const DASHBOARD_RANGES = ['24h', '7d', '30d'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
export const RANGE_DAYS: Record<DashboardRange, number> = { '24h': 1, '7d': 7, '30d': 30 };

interface DashboardControlsProps {
  range: DashboardRange;
  granularity: DashboardGranularity;
  scope: 'self' | 'all';
  isAdmin: boolean;
  isRefreshing: boolean;
  onChange: (
    change: Partial<{ range: DashboardRange; granularity: DashboardGranularity; scope: 'self' | 'all' }>,
  ) => void;
  onRefresh: () => void;
}

/** Range, bucket size, whose usage (admins) and refresh; wraps onto several rows on a phone. */
export function DashboardControls(props: DashboardControlsProps) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" mb="lg" wrap="wrap">
      <SegmentedControl
        aria-label={t('dashboard.range')}
        value={props.range}
        onChange={(value) => props.onChange({ range: value as DashboardRange })}
        data={DASHBOARD_RANGES.map((range) => ({ value: range, label: t(`dashboard.ranges.${range}`) }))}
      />
      <SegmentedControl
        aria-label={t('dashboard.granularity')}
        value={props.granularity}
        onChange={(value) => props.onChange({ granularity: value as DashboardGranularity })}
        data={[
          { value: 'hour', label: t('dashboard.hourly') },
          { value: 'day', label: t('dashboard.daily') },
        ]}
      />
      {props.isAdmin && (
        <SegmentedControl
          aria-label={t('dashboard.scope')}
          value={props.scope}
          onChange={(value) => props.onChange({ scope: value as 'self' | 'all' })}
          data={[
            { value: 'self', label: t('dashboard.scopeSelf') },
            { value: 'all', label: t('dashboard.scopeAll') },
          ]}
        />
      )}
      <RefreshButton
        label={t('dashboard.refresh')}
        onRefresh={props.onRefresh}
        isRefreshing={props.isRefreshing}
      />
    </Group>
  );
}
