import { useState } from 'react';
import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconKey, IconRefresh, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TwoFactorEnrolment as Enrolment } from '@gatehouse/shared';
import { getStoredUser, setStoredUser } from '../../api/session';
import { showSuccess } from '../../api/toast';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TwoFactorCodeModal } from './two-factor-code-modal';
import { TwoFactorEnrolment } from './two-factor-enrolment';
import {
  disableTwoFactor,
  renewRecoveryCodes,
  startTwoFactorEnrolment,
  twoFactorStatusQueryOptions,
} from './two-factor-api';

/** Keeps the stored user's flag in step, so the console knows without asking again. */
function rememberTwoFactor(isEnabled: boolean) {
  const stored = getStoredUser();
  if (stored) setStoredUser({ ...stored, two_factor_enabled: isEnabled });
}

/** Personal settings: turn two-factor sign-in on (QR code, secret, first code) or off; new recovery codes. */
export function TwoFactorSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: status, isPending } = useQuery(twoFactorStatusQueryOptions());
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<'disable' | 'renew' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey });

  const start = useMutation({ mutationFn: startTwoFactorEnrolment, onSuccess: setEnrolment });
  const disable = useMutation({
    mutationFn: ({ code, password }: { code: string; password: string }) => disableTwoFactor(code, password),
    onSuccess: () => {
      setDialog(null);
      rememberTwoFactor(false);
      showSuccess(t('twoFactor.turnedOff'));
      return refresh();
    },
  });
  const renew = useMutation({
    mutationFn: ({ code }: { code: string }) => renewRecoveryCodes(code),
    onSuccess: (answer) => {
      setDialog(null);
      setRecoveryCodes(answer.recovery_codes);
      return refresh();
    },
  });

  if (isPending || !status) return <Loader size="sm" />;
  if (recoveryCodes) {
    return <RecoveryCodesPanel codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  }
  if (enrolment && !status.enabled) {
    return (
      <TwoFactorEnrolment
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onConfirmed={(codes) => {
          setEnrolment(null);
          setRecoveryCodes(codes);
          rememberTwoFactor(true);
          showSuccess(t('twoFactor.turnedOn'));
          void refresh();
        }}
      />
    );
  }
  if (!status.enabled) {
    return (
      <Group justify="space-between" gap="sm">
        <Badge variant="light" color="gray" leftSection={<IconShieldOff size={12} />}>
          {t('twoFactor.off')}
        </Badge>
        <Button
          leftSection={<IconShieldCheck size={16} />}
          loading={start.isPending}
          onClick={() => start.mutate()}
        >
          {t('twoFactor.turnOn')}
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Badge variant="light" color="green" leftSection={<IconShieldCheck size={12} />}>
          {t('twoFactor.on')}
        </Badge>
        <Text size="sm" c="dimmed">
          {t('twoFactor.recoveryLeft', { count: status.recovery_codes_left })}
        </Text>
      </Group>
      <Group gap="sm">
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => setDialog('renew')}>
          {t('twoFactor.renew.open')}
        </Button>
        <Button
          color="red"
          variant="light"
          leftSection={<IconKey size={16} />}
          onClick={() => setDialog('disable')}
        >
          {t('twoFactor.disable.open')}
        </Button>
      </Group>
      <TwoFactorCodeModal
        opened={dialog === 'renew'}
        title={t('twoFactor.renew.title')}
        description={t('twoFactor.renew.description')}
        submitLabel={t('twoFactor.renew.submit')}
        isPending={renew.isPending}
        onSubmit={(code) => renew.mutate({ code })}
        onClose={() => setDialog(null)}
      />
      <TwoFactorCodeModal
        opened={dialog === 'disable'}
        title={t('twoFactor.disable.title')}
        description={t('twoFactor.disable.description')}
        submitLabel={t('twoFactor.disable.submit')}
        asksPassword={status.requires_password}
        danger
        isPending={disable.isPending}
        onSubmit={(code, password) => disable.mutate({ code, password })}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
