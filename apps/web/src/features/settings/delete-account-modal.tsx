import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { clearStoredUser, forgetUserQueries, useStoredUser } from '../../api/session';
import { showError, showSuccess } from '../../api/toast';
import { deleteSelf } from './options-queries';

/** Deleting one's own account: the user types its username to confirm. */
export function DeleteAccountModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useStoredUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const mutation = useMutation({
    mutationFn: deleteSelf,
    onSuccess: () => {
      showSuccess(t('settings.personal.deleteAccount.success'));
      clearStoredUser();
      forgetUserQueries(queryClient);
      void navigate('/login');
    },
  });

  const confirm = () => {
    if (typed !== user?.username) {
      showError(t('settings.personal.deleteAccount.mismatch'));
      return;
    }
    mutation.mutate();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.personal.deleteAccount.title')} centered>
      <Stack gap="md">
        <Alert color="red">{t('settings.personal.deleteAccount.warning')}</Alert>
        <TextInput
          label={t('settings.personal.deleteAccount.label')}
          placeholder={t('settings.personal.deleteAccount.placeholder', { username: user?.username ?? '' })}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') confirm();
          }}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('settings.cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={mutation.isPending}>
            {t('settings.personal.deleteAccount.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
