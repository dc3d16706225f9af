import { useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { emailSchema } from '@gatehouse/shared';
import { showSuccess } from '../../api/toast';
import { bindEmail } from './accounts-api';
import { SendCodeButton, useVerificationCodeSender } from './send-code-button';
import { useCooldown, type Cooldown } from './use-cooldown';
import { useTurnstile } from './use-turnstile';

interface EmailBindModalProps {
  opened: boolean;
  onClose: () => void;
  onBound: () => void;
}

/** Personal settings: binds an e-mail address proved by a mailed code (30 s resend cooldown). */
export function EmailBindModal({ opened, onClose, onBound }: EmailBindModalProps) {
  const { t } = useTranslation();
  const cooldown = useCooldown();
  return (
    <Modal opened={opened} onClose={onClose} title={t('accounts.emailBind.bindTitle')} centered>
      <EmailBindForm cooldown={cooldown} onClose={onClose} onBound={onBound} />
    </Modal>
  );
}

// Mounted only while the dialog is open, so the human-check widget has its container when it renders.
function EmailBindForm({
  cooldown,
  onClose,
  onBound,
}: Omit<EmailBindModalProps, 'opened'> & { cooldown: Cooldown }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const turnstile = useTurnstile();
  const sender = useVerificationCodeSender(turnstile, cooldown);
  const mutation = useMutation({
    mutationFn: ({ address, value }: { address: string; value: string }) => bindEmail(address, value),
    onSuccess: () => {
      showSuccess(t('accounts.emailBind.bound'));
      setCode('');
      onBound();
    },
  });

  const checkedEmail = (): string | null => {
    if (!email.trim()) return null;
    const parsed = emailSchema.safeParse(email);
    setEmailError(parsed.success ? null : t('accounts.emailInvalid'));
    return parsed.success ? parsed.data : null;
  };
  const sendCode = () => {
    const address = checkedEmail();
    if (address) sender.send(address);
  };
  const bind = () => {
    const address = checkedEmail();
    // An empty code does nothing.
    if (address && code.trim()) mutation.mutate({ address, value: code.trim() });
  };

  return (
    <Stack gap="md">
      <TextInput
        type="email"
        label={t('accounts.email')}
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.currentTarget.value)}
        error={emailError}
        rightSectionWidth={120}
        rightSection={
          <SendCodeButton onClick={sendCode} remaining={sender.remaining} isPending={sender.isPending} />
        }
        data-autofocus
      />
      {turnstile.widget}
      <TextInput
        label={t('accounts.emailBind.code')}
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') bind();
        }}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('accounts.cancel')}
        </Button>
        <Button onClick={bind} loading={mutation.isPending}>
          {t('accounts.emailBind.bind')}
        </Button>
      </Group>
    </Stack>
  );
}
