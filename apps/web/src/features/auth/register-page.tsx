import { useEffect } from 'react';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../api/storage';
import { useBranding, useStatus } from '../../api/status';
import { showSuccess } from '../../api/toast';
import { translateError } from '../../components/translate-error';
import { SendCodeButton, useVerificationCodeSender } from '../accounts/send-code-button';
import { useTurnstile } from '../accounts/use-turnstile';
import { register as registerUser } from './auth-api';
import { AuthCard, AuthCardLink } from './auth-card';
import { registerFormSchema, type RegisterFormValues } from './register-form-schema';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const status = useStatus();
  const { systemName } = useBranding();
  const affCode = searchParams.get('aff');

  // The invite code survives a detour (to the login page, say) until the visitor registers.
  useEffect(() => {
    if (affCode) localStorage.setItem(StorageKey.aff, affCode);
  }, [affCode]);

  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { username: '', password: '', password2: '', email: '', verification_code: '' },
  });

  const turnstile = useTurnstile();
  const codeSender = useVerificationCodeSender(turnstile);
  const registration = useMutation({
    mutationFn: ({ values, token }: { values: RegisterFormValues; token: string }) =>
      registerUser({ ...values, aff_code: localStorage.getItem(StorageKey.aff) ?? '' }, token),
    onSuccess: () => {
      showSuccess(t('auth.register.success'));
      void navigate('/login');
    },
    onError: () => turnstile.reset(),
  });

  const submit = (values: RegisterFormValues) => {
    const token = turnstile.takeToken();
    if (token !== null) registration.mutate({ values, token });
  };

  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle', { systemName })}
      footer={
        <AuthCardLink
          prompt={t('auth.register.haveAccount')}
          to="/login"
          label={t('auth.register.loginLink')}
        />
      }
    >
      <form onSubmit={handleSubmit(submit)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('auth.register.username')}
            description={t('auth.register.usernameHint')}
            autoComplete="username"
            error={translateError(t, errors.username)}
            {...register('username')}
          />
          <PasswordInput
            label={t('auth.register.password')}
            description={t('auth.register.passwordHint')}
            autoComplete="new-password"
            error={translateError(t, errors.password)}
            {...register('password')}
          />
          <PasswordInput
            label={t('auth.register.confirmPassword')}
            autoComplete="new-password"
            error={translateError(t, errors.password2)}
            {...register('password2')}
          />
          {status?.email_verification && (
            <>
              <TextInput
                type="email"
                label={t('auth.register.email')}
                autoComplete="email"
                rightSectionWidth={120}
                rightSection={
                  <SendCodeButton
                    onClick={() => codeSender.send(getValues('email'))}
                    remaining={codeSender.remaining}
                    isPending={codeSender.isPending}
                  />
                }
                {...register('email')}
              />
              <TextInput
                label={t('auth.register.verificationCode')}
                autoComplete="one-time-code"
                {...register('verification_code')}
              />
            </>
          )}
          {turnstile.widget}
          <Button type="submit" fullWidth loading={registration.isPending}>
            {t('auth.register.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
