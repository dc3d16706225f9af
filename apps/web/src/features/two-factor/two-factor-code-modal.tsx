import { useState } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface TwoFactorCodeModalProps {
  opened: boolean;
  title: string;
  description: string;
  submitLabel: string;
  /** ask for the account's password too (turning two-factor sign-in off) */
  asksPassword?: boolean;
  isPending: boolean;
  danger?: boolean;
  onSubmit: (code: string, password: string) => void;
  onClose: () => void;
}

/** Asks for a current code or a recovery code (and the password when needed) before a change. */
export function TwoFactorCodeModal(props: TwoFactorCodeModalProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const close = () => {
    setCode('');
    setPassword('');
    props.onClose();
  };
  const canSubmit = code.trim() !== '' && (!props.asksPassword || password !== '');
  return (
    <Modal opened={props.opened} onClose={close} title={props.title} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canSubmit) props.onSubmit(code.trim(), password);
        }}
      >
        <Stack gap="md">
          <Text size="sm">{props.description}</Text>
          <TextInput
            label={t('twoFactor.codeOrRecovery')}
            autoComplete="one-time-code"
            data-autofocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          {props.asksPassword && (
            <PasswordInput
              label={t('twoFactor.password')}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('twoFactor.cancel')}
            </Button>
            <Button
              type="submit"
              color={props.danger ? 'red' : undefined}
              loading={props.isPending}
              disabled={!canSubmit}
            >
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
