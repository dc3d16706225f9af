import { useState } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { emailSchema } from '@gatehouse/shared';
import { useBranding } from '../../api/status';
import { showSuccess } from '../../api/toast';
import { AuthCard, AuthCardLink } from '../auth/auth-card';
import { requestPasswordReset } from './accounts-api';
import { useCooldown } from './use-cooldown';
import { useTurnstile } from './use-turnstile';

/** /reset: mails a reset link; the button then waits 30 s, showing 'retry (n)'. */
export default function ResetRequestPage() {
  const { t } = useTranslation();
  const { systemName } = useBranding();
  const turnstile = useTurnstile();
  const cooldown = useCooldown();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ address, token }: { address: string; token: string }) =>
      requestPasswordReset(address, token),
    onSuccess: () => {
      showSuccess(t('accounts.reset.sent'));
      cooldown.start();
    },
    onSettled: () => turnstile.reset(),
  });

  const submit = () => {
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(t('accounts.emailInvalid'));
      return;
    }
    setError(null);
    const token = turnstile.takeToken();
    if (token !== null) mutation.mutate({ address: parsed.data, token });
  };

  return (
    <AuthCard
      title={t('accounts.reset.title')}
      subtitle={t('accounts.reset.subtitle', { systemName })}
      footer={
        <AuthCardLink
          prompt={t('accounts.reset.remembered')}
          to="/login"
          label={t('auth.register.loginLink')}
        />
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack gap="md">
          <TextInput
            type="email"
            label={t('accounts.email')}
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={error}
          />
          {turnstile.widget}
          <Button type="submit" fullWidth loading={mutation.isPending} disabled={cooldown.isCoolingDown}>
            {cooldown.isCoolingDown
              ? t('accounts.cooldown.retry', { seconds: cooldown.remaining })
              : t('accounts.reset.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
