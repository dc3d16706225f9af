import { useState } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError, showApiError } from '../../api/client';
import { useCompleteLogin } from '../accounts/use-oauth-login';
import { AuthCard } from '../auth/auth-card';
import { completeTwoFactorLogin, type TwoFactorLoginState } from './two-factor-api';

const CODE_LENGTH = 6;

function destinationOf(state: unknown): string {
  const destination = (state as Partial<TwoFactorLoginState> | null)?.destination;
  return typeof destination === 'string' && destination.startsWith('/') ? destination : '/token';
}

/**
 * The second sign-in step (/login/2fa): a sign-in that passed its first step (password, GitHub, Lark, WeChat)
 * waits here for a code from the authenticator app, or a recovery code, for five minutes.
 */
export default function TwoFactorLoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const completeLogin = useCompleteLogin();
  const [isRecovery, setIsRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: completeTwoFactorLogin,
    onSuccess: (user) => completeLogin(user, destinationOf(location.state)),
    onError: (failure) => {
      if (failure instanceof ApiError && failure.kind === 'failure') setError(failure.message);
      else showApiError(failure);
      setCode('');
    },
  });

  const submit = (value = code) => {
    setError(null);
    if (value.trim() === '') {
      setError(t('twoFactor.login.codeRequired'));
      return;
    }
    mutation.mutate(value.trim());
  };

  const switchMode = () => {
    setIsRecovery((current) => !current);
    setCode('');
    setError(null);
  };

  return (
    <AuthCard
      title={t('twoFactor.login.title')}
      subtitle={isRecovery ? t('twoFactor.login.recoverySubtitle') : t('twoFactor.login.subtitle')}
      footer={
        <Anchor component={Link} to="/login" size="sm">
          {t('twoFactor.login.backToLogin')}
        </Anchor>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            key={isRecovery ? 'recovery' : 'app'}
            label={isRecovery ? t('twoFactor.login.recoveryCode') : t('twoFactor.login.code')}
            placeholder={isRecovery ? 'xxxxx-xxxxx' : '123456'}
            inputMode={isRecovery ? 'text' : 'numeric'}
            autoComplete={isRecovery ? 'off' : 'one-time-code'}
            maxLength={isRecovery ? 64 : CODE_LENGTH}
            autoFocus
            size="md"
            styles={{ input: { letterSpacing: isRecovery ? undefined : '0.3em', textAlign: 'center' } }}
            value={code}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setCode(value);
              if (!isRecovery && !mutation.isPending && /^\d{6}$/.test(value)) submit(value);
            }}
            error={error}
          />
          <Button type="submit" fullWidth loading={mutation.isPending}>
            {t('twoFactor.login.submit')}
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={switchMode} ta="center">
            {isRecovery ? t('twoFactor.login.useApp') : t('twoFactor.login.useRecoveryCode')}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
