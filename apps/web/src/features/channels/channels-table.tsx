import { useMemo } from 'react';
import { Badge, Button, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  channelStatusBadges,
  findBalanceCurrency,
  findChannelType,
  formatBalance,
  formatQuota,
  formatTimestamp,
  responseTimeColor,
  type Channel,
  type QuotaDisplay,
} from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { ChannelHealthCell } from './channel-health-cell';
import { ChannelRowActions } from './channel-row-actions';
import { InlineNumberInput } from './inline-number-input';
import type { ChannelActions } from './use-channel-actions';
import { StatusBadge } from '../../components/status-badge';

/** Badges keep their whole text: on a narrow screen the table scrolls rather than cutting labels. */
const wholeLabel = { label: { overflow: 'visible' } } as const;

function TypeTag({ type, t }: { type: number; t: TFunction }) {
  const info = findChannelType(type);
  return (
    <Badge color={info?.color ?? 'gray'} variant="light" tt="none" styles={wholeLabel}>
      {info ? t(`channels.types.${info.id}`, { defaultValue: info.name }) : String(type)}
    </Badge>
  );
}

function ResponseTimeBadge({ channel, t }: { channel: Channel; t: TFunction }) {
  const color = responseTimeColor(channel.response_time);
  const label = color
    ? t('channels.responseTime.seconds', { seconds: (channel.response_time / 1000).toFixed(2) })
    : t('channels.responseTime.untested');
  const tip = channel.test_time
    ? t('channels.responseTime.testedAt', { time: formatTimestamp(channel.test_time) })
    : t('channels.responseTime.neverTested');
  return (
    <Tooltip label={tip} openDelay={50} closeDelay={70}>
      <Badge color={color ?? 'gray'} variant={color ? 'filled' : 'outline'} tt="none" styles={wholeLabel}>
        {label}
      </Badge>
    </Tooltip>
  );
}

/** The vendor account's balance; a click asks the vendor again. Types without a balance API show a dash. */
function BalanceCell({ channel, actions, t }: { channel: Channel; actions: ChannelActions; t: TFunction }) {
  const currency = findBalanceCurrency(channel.type);
  if (!currency)
    return (
      <Tooltip label={t('channels.balance.noApiTip')} openDelay={50}>
        <Text size="sm" c="dimmed">
          {t('channels.balance.noApi')}
        </Text>
      </Tooltip>
    );
  const isQueried = channel.balance_updated_time > 0;
  const tip = isQueried
    ? t('channels.balance.updatedAt', { time: formatTimestamp(channel.balance_updated_time) })
    : t('channels.balance.clickTip');
  return (
    <Tooltip label={tip} openDelay={50}>
      <Button
        size="compact-sm"
        variant="subtle"
        color={isQueried && channel.balance <= 0 ? 'red' : 'gray'}
        loading={actions.isUpdatingBalance(channel.id)}
        onClick={() => actions.updateBalance(channel)}
        aria-label={`${t('channels.column.balance')} (${channel.name})`}
      >
        {isQueried ? formatBalance(channel.balance, currency) : t('channels.balance.notQueried')}
      </Button>
    </Tooltip>
  );
}

/** The channel list's columns; header clicks sort the fetched rows. */
export function useChannelColumns(
  actions: ChannelActions,
  quotaDisplay: QuotaDisplay,
): DataTableColumn<Channel>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const header = (key: string) => t(`channels.column.${key}`);
    return [
      {
        key: 'id',
        header: header('id'),
        render: (channel) => channel.id,
        sortValue: (channel) => channel.id,
        width: 64,
      },
      {
        key: 'name',
        header: header('name'),
        render: (channel) => (
          <Text size="sm" fw={500} lineClamp={1} title={channel.name} miw={100} maw={240}>
            {channel.name}
          </Text>
        ),
        sortValue: (channel) => channel.name,
      },
      {
        key: 'type',
        header: header('type'),
        render: (channel) => <TypeTag type={channel.type} t={t} />,
        sortValue: (channel) => channel.type,
      },
      {
        key: 'status',
        header: header('status'),
        render: (channel) => <StatusBadge map={channelStatusBadges} value={channel.status} />,
        sortValue: (channel) => channel.status,
      },
      {
        key: 'health',
        header: header('health'),
        render: (channel) => <ChannelHealthCell channel={channel} t={t} />,
        sortValue: (channel) => channel.health?.error_rate ?? 0,
      },
      {
        key: 'response_time',
        header: header('responseTime'),
        render: (channel) => <ResponseTimeBadge channel={channel} t={t} />,
        sortValue: (channel) => channel.response_time,
      },
      {
        key: 'used_quota',
        header: header('usedQuota'),
        render: (channel) => formatQuota(channel.used_quota, quotaDisplay),
        sortValue: (channel) => channel.used_quota,
      },
      {
        key: 'balance',
        header: header('balance'),
        render: (channel) => <BalanceCell channel={channel} actions={actions} t={t} />,
        sortValue: (channel) => channel.balance,
      },
      {
        key: 'priority',
        header: header('priority'),
        render: (channel) => (
          <InlineNumberInput
            value={channel.priority}
            label={t('channels.inline.priority', { name: channel.name })}
            onSave={(priority) => actions.setPriority(channel, priority)}
          />
        ),
        sortValue: (channel) => channel.priority,
      },
      {
        key: 'weight',
        header: header('weight'),
        render: (channel) => (
          <InlineNumberInput
            value={channel.weight}
            min={0}
            label={t('channels.inline.weight', { name: channel.name })}
            onSave={(weight) => actions.setWeight(channel, weight)}
          />
        ),
        sortValue: (channel) => channel.weight,
      },
      {
        key: 'actions',
        header: header('actions'),
        render: (channel) => <ChannelRowActions channel={channel} actions={actions} />,
      },
    ];
  }, [actions, quotaDisplay, t]);
}
