import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isTwoFactorChallenge } from '@gatehouse/shared';
import { forgetUserQueries, setStoredUser } from '../../api/session';
import { useBranding, useStatus } from '../../api/status';
import { showSuccess, showWarning } from '../../api/toast';
import { translateError } from '../../components/translate-error';
import { DEFAULT_ROOT_PASSWORD, DEFAULT_ROOT_USERNAME, login } from './auth-api';
import { AuthCard, AuthCardLink } from './auth-card';
import { loginFormSchema, type LoginFormValues } from './login-form-schema';
import { useCompleteLogin, useOAuthLogin } from '../accounts/use-oauth-login';
import { OAuthButtons } from './oauth-buttons';
import { redirectTarget } from './redirect-target';

export default function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useStatus();
  const { systemName } = useBranding();
  const oauth = useOAuthLogin(status);
  const completeLogin = useCompleteLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { username: '', password: '' },
  });

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (user, credentials) => {
      if (isTwoFactorChallenge(user)) {
        completeLogin(user, redirectTarget(location.state));
        return;
      }
      forgetUserQueries(queryClient);
      setStoredUser(user);
      showSuccess(t('auth.login.success'));
      if (credentials.username === DEFAULT_ROOT_USERNAME && credentials.password === DEFAULT_ROOT_PASSWORD) {
        showWarning(t('auth.login.changeDefaultPassword'));
        void navigate('/user/edit');
        return;
      }
      void navigate(redirectTarget(location.state));
    },
  });

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle', { systemName })}
      footer={
        <>
          <AuthCardLink
            prompt={t('auth.login.forgotPassword')}
            to="/reset"
            label={t('auth.login.resetLink')}
          />
          <AuthCardLink
            prompt={t('auth.login.noAccount')}
            to="/register"
            label={t('auth.login.registerLink')}
          />
        </>
      }
    >
      {searchParams.has('expired') && (
        <Alert color="yellow" icon={<IconInfoCircle />} mb="md" role="alert">
          {t('auth.login.expired')}
        </Alert>
      )}
      <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('auth.login.username')}
            autoComplete="username"
            autoFocus
            error={translateError(t, errors.username)}
            {...register('username')}
          />
          <PasswordInput
            label={t('auth.login.password')}
            autoComplete="current-password"
            error={translateError(t, errors.password)}
            {...register('password')}
          />
          <Button type="submit" fullWidth loading={mutation.isPending}>
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
      <OAuthButtons status={status} handlers={oauth.handlers} pending={oauth.pending} />
      {oauth.dialog}
    </AuthCard>
  );
}
