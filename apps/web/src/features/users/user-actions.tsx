import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Role, UserStatus, isRootRole, type ManageUserAction, type User } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { showSuccess } from '../../api/toast';
import { patchUserInLists } from './user-list-cache';
import { manageUser, userKeys } from './users-queries';

/** Promote, demote, enable/disable, delete (each confirmed) and edit; none of them for the super admin. */
export function UserActions({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const viewer = useStoredUser();
  const mutation = useMutation({
    mutationFn: ({ action }: { action: ManageUserAction }) => manageUser(user.username, action),
    onSuccess: (result, { action }) => {
      showSuccess(t('users.actions.done'));
      patchUserInLists(queryClient, user.username, action === 'delete' ? null : result);
      void queryClient.invalidateQueries({ queryKey: userKeys.detail(user.id) });
    },
  });

  const isLocked = isRootRole(user.role);
  const confirm = (action: ManageUserAction) =>
    modals.openConfirmModal({
      title: t(`users.actions.${action}`),
      children: <Text size="sm">{t(`users.actions.confirm.${action}`, { username: user.username })}</Text>,
      labels: { confirm: t('users.actions.confirmButton'), cancel: t('users.actions.cancel') },
      confirmProps: { color: action === 'delete' || action === 'disable' ? 'red' : undefined },
      onConfirm: () => mutation.mutate({ action }),
    });

  const isEnabled = user.status === UserStatus.enabled;
  const button = (action: ManageUserAction, disabled: boolean, color?: string) => (
    <Button
      size="compact-xs"
      variant="light"
      color={color}
      disabled={isLocked || disabled}
      loading={mutation.isPending && mutation.variables.action === action}
      onClick={() => confirm(action)}
    >
      {t(`users.actions.${action}`)}
    </Button>
  );

  return (
    <Group gap={4} wrap="nowrap">
      {button('promote', user.role >= Role.admin || !isRootRole(viewer?.role ?? 0))}
      {button('demote', user.role < Role.admin, 'orange')}
      {isEnabled ? button('disable', false, 'yellow') : button('enable', false, 'green')}
      {button('delete', false, 'red')}
      <Button
        size="compact-xs"
        variant="default"
        component={Link}
        to={`/user/edit/${user.id}`}
        disabled={isLocked}
      >
        {t('users.actions.edit')}
      </Button>
    </Group>
  );
}
