import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconCopy } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showSuccess, showWarning } from '../../api/toast';
import { AuthCard } from '../auth/auth-card';
import { copyText } from '../settings/copy-text';
import { confirmPasswordReset } from './accounts-api';
import { useCooldown } from './use-cooldown';

/**
 * /user/reset, the mailed link: one click sets a new random password, shown once and copied when
 * clicked. The link works once, so after success the button stays 'reset completed'; after a failure it
 * waits 30 s ('retry (n)').
 */
export default function ResetConfirmPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email') ?? '';
  const token = searchParams.get('token') ?? '';
  const cooldown = useCooldown();
  const mutation = useMutation({
    mutationFn: () => confirmPasswordReset(email, token),
    onSuccess: () => showSuccess(t('accounts.resetConfirm.done')),
    onError: () => cooldown.start(),
  });
  const isComplete = mutation.isSuccess;

  const copyPassword = async (password: string) => {
    if (await copyText(password)) showSuccess(t('accounts.resetConfirm.copied'));
    else showWarning(t('settings.personal.copyFailed'));
  };

  let label = t('accounts.resetConfirm.submit');
  if (isComplete) label = t('accounts.resetConfirm.completed');
  else if (cooldown.isCoolingDown) label = t('accounts.cooldown.retry', { seconds: cooldown.remaining });

  return (
    <AuthCard title={t('accounts.resetConfirm.title')} subtitle={t('accounts.resetConfirm.subtitle')}>
      <Stack gap="md">
        {(!email || !token) && (
          <Alert color="yellow" role="alert">
            {t('accounts.resetConfirm.incomplete')}{' '}
            <Anchor component={Link} to="/reset" size="sm">
              {t('accounts.resetConfirm.requestNew')}
            </Anchor>
          </Alert>
        )}
        <TextInput label={t('accounts.email')} value={email} readOnly variant="filled" />
        {isComplete && (
          <TextInput
            label={t('accounts.resetConfirm.newPassword')}
            description={t('accounts.resetConfirm.newPasswordHint')}
            value={mutation.data}
            readOnly
            styles={{ input: { cursor: 'copy', fontFamily: 'monospace' } }}
            rightSection={<IconCopy size={16} />}
            onClick={(event) => {
              event.currentTarget.select();
              void copyPassword(mutation.data);
            }}
          />
        )}
        <Button
          fullWidth
          onClick={() => mutation.mutate()}
          loading={mutation.isPending}
          disabled={!email || !token || isComplete || cooldown.isCoolingDown}
        >
          {label}
        </Button>
      </Stack>
    </AuthCard>
  );
}
