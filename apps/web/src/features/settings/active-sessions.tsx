import { Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type UserSession } from '@gatehouse/shared';
import { showSuccess } from '../../api/toast';
import { describeUserAgent } from './describe-user-agent';
import { endOtherSessions, endSession, sessionsQueryOptions } from './sessions-queries';

function SessionRow({
  session,
  onEnd,
  isEnding,
}: {
  session: UserSession;
  onEnd: () => void;
  isEnding: boolean;
}) {
  const { t } = useTranslation();
  const { browser, system } = describeUserAgent(session.user_agent);
  const DeviceIcon = system === 'iOS' || system === 'Android' ? IconDeviceMobile : IconDeviceDesktop;
  const device =
    browser && system
      ? t('settings.personal.sessions.device', { browser, system })
      : (browser ?? system ?? t('settings.personal.sessions.unknownDevice'));
  return (
    <Paper withBorder radius="sm" p="sm">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
          <DeviceIcon size={20} style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text size="sm" fw={500} title={session.user_agent}>
                {device}
              </Text>
              {session.is_current && (
                <Badge size="sm" variant="light" color="green">
                  {t('settings.personal.sessions.current')}
                </Badge>
              )}
            </Group>
            <Group gap="md" style={{ rowGap: 2 }}>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t('settings.personal.sessions.ip', { ip: session.ip || '—' })}
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t('settings.personal.sessions.lastSeen', { time: formatTimestamp(session.last_seen_at) })}
              </Text>
            </Group>
          </Stack>
        </Group>
        {!session.is_current && (
          <Button size="xs" variant="default" onClick={onEnd} loading={isEnding} style={{ flexShrink: 0 }}>
            {t('settings.personal.sessions.signOut')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** The user's signed-in console sessions, each with a sign-out, and one to end all but this one. */
export function ActiveSessions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: sessions, isPending } = useQuery(sessionsQueryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
  const endOne = useMutation({
    mutationFn: endSession,
    onSuccess: () => {
      showSuccess(t('settings.personal.sessions.signedOut'));
      return refresh();
    },
  });
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: () => {
      showSuccess(t('settings.personal.sessions.signedOutElsewhere'));
      return refresh();
    },
  });

  if (isPending) return <Loader size="sm" />;
  const hasOthers = (sessions ?? []).some((session) => !session.is_current);
  return (
    <Stack gap="sm">
      {(sessions ?? []).map((session) => (
        <SessionRow
          key={session.id}
          session={session}
          onEnd={() => endOne.mutate(session.id)}
          isEnding={endOne.isPending && endOne.variables === session.id}
        />
      ))}
      <Group>
        <Button
          color="red"
          variant="light"
          leftSection={<IconLogout size={16} />}
          disabled={!hasOthers}
          loading={endOthers.isPending}
          onClick={() => endOthers.mutate()}
        >
          {t('settings.personal.sessions.signOutEverywhere')}
        </Button>
      </Group>
    </Stack>
  );
}
