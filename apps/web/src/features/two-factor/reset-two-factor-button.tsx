import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isRootRole, type User } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { showSuccess } from '../../api/toast';
import { userKeys } from '../users/users-queries';
import { resetUserTwoFactor } from './two-factor-api';

/** Admin user edit: root may turn off another user's two-factor sign-in (a lost phone and lost codes). */
export function ResetTwoFactorButton({ user }: { user: User }) {
  const { t } = useTranslation();
  const viewer = useStoredUser();
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () => resetUserTwoFactor(user.id),
    onSuccess: () => {
      showSuccess(t('twoFactor.reset.done', { username: user.username }));
      return queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  if (!isRootRole(viewer?.role ?? 0) || !user.two_factor_enabled) return null;
  const confirm = () =>
    modals.openConfirmModal({
      title: t('twoFactor.reset.title'),
      children: <Text size="sm">{t('twoFactor.reset.message', { username: user.username })}</Text>,
      labels: { confirm: t('twoFactor.reset.confirm'), cancel: t('twoFactor.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => reset.mutate(),
    });
  return (
    <Group justify="space-between" mt="lg" gap="sm">
      <Text size="sm" c="dimmed">
        {t('twoFactor.reset.hint')}
      </Text>
      <Button
        color="red"
        variant="light"
        leftSection={<IconShieldOff size={16} />}
        loading={reset.isPending}
        onClick={confirm}
      >
        {t('twoFactor.reset.open')}
      </Button>
    </Group>
  );
}
