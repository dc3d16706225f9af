import { Button } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../api/toast';
import { sendVerificationCode } from '../auth/auth-api';
import { useCooldown, type Cooldown } from './use-cooldown';
import type { Turnstile } from './use-turnstile';

/**
 * Mails a verification code (GET /api/verification) for the register page and the bind-e-mail dialog, then
 * waits 30 s before it may send again. An empty address does nothing. A dialog passes a
 * cooldown that outlives its content, so closing and reopening it does not skip the wait.
 */
export function useVerificationCodeSender(turnstile: Turnstile, outerCooldown?: Cooldown) {
  const { t } = useTranslation();
  const ownCooldown = useCooldown();
  const cooldown = outerCooldown ?? ownCooldown;
  const mutation = useMutation({
    mutationFn: ({ email, token }: { email: string; token: string }) => sendVerificationCode(email, token),
    onSuccess: () => {
      showSuccess(t('auth.register.codeSent'));
      cooldown.start();
    },
    onSettled: () => turnstile.reset(),
  });
  const send = (email: string) => {
    const address = email.trim();
    if (!address || cooldown.isCoolingDown) return;
    const token = turnstile.takeToken();
    if (token !== null) mutation.mutate({ email: address, token });
  };
  return { send, remaining: cooldown.remaining, isPending: mutation.isPending };
}

interface SendCodeButtonProps {
  onClick: () => void;
  remaining: number;
  isPending: boolean;
}

/** 'Get code', then 'resend (n)' while the cooldown runs. */
export function SendCodeButton({ onClick, remaining, isPending }: SendCodeButtonProps) {
  const { t } = useTranslation();
  return (
    <Button size="compact-sm" variant="light" onClick={onClick} loading={isPending} disabled={remaining > 0}>
      {remaining > 0 ? t('accounts.cooldown.resend', { seconds: remaining }) : t('auth.register.sendCode')}
    </Button>
  );
}
