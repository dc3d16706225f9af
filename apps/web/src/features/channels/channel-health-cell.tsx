import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import {
  channelHealthBadges,
  formatTimestamp,
  type Channel,
  type ChannelHealthState,
} from '@gatehouse/shared';

/** Badges keep their whole text: on a narrow screen the table scrolls rather than cutting labels. */
const wholeLabel = { label: { overflow: 'visible' } } as const;

/** The state shown: refused credentials stored by any server count even when this one has not seen them. */
function shownState(channel: Channel): ChannelHealthState | null {
  if (channel.health?.state === 'auth_failed' || channel.auth_failed_reason) return 'auth_failed';
  return channel.health?.state ?? null;
}

/**
 * The channel's health on the server that answered: its circuit state (closed, open or resting until a time,
 * probing, auth failed), and its error rate and latency over the recent window. The reason and each model's
 * circuit are in the tooltip.
 */
export function ChannelHealthCell({ channel, t }: { channel: Channel; t: TFunction }) {
  const { health } = channel;
  const state = shownState(channel);
  if (!health || !state) return <Text size="sm">—</Text>;
  const badge = channelHealthBadges[state];
  const minutes = Math.round(health.window_seconds / 60);
  const reason = state === 'auth_failed' ? channel.auth_failed_reason || health.reason : health.reason;
  const tip = [
    ...(reason ? [t('channels.health.reason', { reason })] : []),
    ...health.circuits.map((circuit) =>
      t('channels.health.circuit', {
        model: circuit.model,
        state: t(channelHealthBadges[circuit.state].label),
        until: circuit.until ? formatTimestamp(circuit.until) : '—',
      }),
    ),
    t('channels.health.window', { minutes }),
  ];
  return (
    <Tooltip
      label={
        <Stack gap={2}>
          {tip.map((line, index) => (
            <span key={index}>{line}</span>
          ))}
        </Stack>
      }
      multiline
      w={320}
      openDelay={50}
    >
      <Stack gap={2} miw={150}>
        <Badge color={badge.color} variant="light" tt="none" styles={wholeLabel}>
          {t(badge.label)}
        </Badge>
        {health.until > 0 && (state === 'open' || state === 'resting') && (
          <Text size="xs" c="dimmed">
            {t('channels.health.until', { time: formatTimestamp(health.until) })}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {health.requests === 0
            ? t('channels.health.noRecent')
            : t(health.latency_ms > 0 ? 'channels.health.recent' : 'channels.health.recentFailed', {
                rate: Math.round(health.error_rate * 100),
                latency: health.latency_ms,
                count: health.requests,
              })}
        </Text>
      </Stack>
    </Tooltip>
  );
}
