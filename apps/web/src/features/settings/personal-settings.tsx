import { useState } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconCopy, IconKey, IconTrash, IconUserEdit } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showSuccess, showWarning } from '../../api/toast';
import { AccountBindings } from './account-bindings';
import { ActiveSessions } from './active-sessions';
import { AvailableModels } from './available-models';
import { copyText } from './copy-text';
import { DeleteAccountModal } from './delete-account-modal';
import { generateAccessToken, getAffCode } from './options-queries';
import { SettingsSection } from './settings-section';
import { TwoFactorSettings } from '../two-factor/two-factor-settings';

export function PersonalSettings() {
  const { t } = useTranslation();
  const [isDeleting, setIsDeleting] = useState(false);
  // What was last generated or copied, also shown on the page in case the clipboard is refused.
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null);

  const copyAndShow = async (label: string, value: string, successMessage: string) => {
    setShown({ label, value });
    if (await copyText(value)) showSuccess(successMessage);
    else showWarning(t('settings.personal.copyFailed'));
  };

  const token = useMutation({
    mutationFn: generateAccessToken,
    onSuccess: (accessToken) =>
      copyAndShow(t('settings.personal.accessToken'), accessToken, t('settings.personal.tokenCopied')),
  });
  const invite = useMutation({
    mutationFn: getAffCode,
    onSuccess: (code) =>
      copyAndShow(
        t('settings.personal.inviteLink'),
        `${window.location.origin}/register?aff=${code}`,
        t('settings.personal.inviteCopied'),
      ),
  });

  return (
    <Stack gap="lg">
      <SettingsSection title={t('settings.personal.general')}>
        <Group gap="sm">
          <Button component={Link} to="/user/edit" variant="default" leftSection={<IconUserEdit size={16} />}>
            {t('settings.personal.updateInfo')}
          </Button>
          <Button
            onClick={() => token.mutate()}
            loading={token.isPending}
            leftSection={<IconKey size={16} />}
          >
            {t('settings.personal.generateToken')}
          </Button>
          <Button
            variant="light"
            onClick={() => invite.mutate()}
            loading={invite.isPending}
            leftSection={<IconCopy size={16} />}
          >
            {t('settings.personal.copyInvite')}
          </Button>
          <Button
            color="red"
            variant="light"
            onClick={() => setIsDeleting(true)}
            leftSection={<IconTrash size={16} />}
          >
            {t('settings.personal.deleteAccount.open')}
          </Button>
        </Group>
        {shown && (
          <TextInput
            label={shown.label}
            value={shown.value}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
        )}
      </SettingsSection>
      <SettingsSection title={t('settings.personal.availableModels')}>
        <AvailableModels />
      </SettingsSection>
      <SettingsSection title={t('settings.personal.bindings.title')}>
        <AccountBindings />
      </SettingsSection>
      <SettingsSection title={t('twoFactor.title')} description={t('twoFactor.description')}>
        <TwoFactorSettings />
      </SettingsSection>
      <SettingsSection
        title={t('settings.personal.sessions.title')}
        description={t('settings.personal.sessions.description')}
      >
        <ActiveSessions />
      </SettingsSection>
      <DeleteAccountModal opened={isDeleting} onClose={() => setIsDeleting(false)} />
    </Stack>
  );
}
