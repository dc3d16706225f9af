import { useState } from 'react';
import { Button, Code, CopyButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TwoFactorEnrolment as Enrolment } from '@gatehouse/shared';
import { confirmTwoFactor } from './two-factor-api';

interface TwoFactorEnrolmentProps {
  enrolment: Enrolment;
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** Scan the QR code (or type the secret), then confirm with the first code the app shows. */
export function TwoFactorEnrolment({ enrolment, onConfirmed, onCancel }: TwoFactorEnrolmentProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const confirm = useMutation({
    mutationFn: confirmTwoFactor,
    onSuccess: (answer) => onConfirmed(answer.recovery_codes),
  });
  // Groups of four, as authenticator apps show a typed-in key.
  const spacedSecret = enrolment.secret.replace(/(.{4})(?=.)/g, '$1 ');
  return (
    <Stack gap="md">
      <Text size="sm">{t('twoFactor.enrol.scan')}</Text>
      <Group align="flex-start" gap="lg">
        <Image
          src={enrolment.qr_code}
          alt={t('twoFactor.enrol.qrAlt')}
          w={200}
          h={200}
          radius="sm"
          style={{ border: '1px solid var(--mantine-color-default-border)' }}
        />
        <Stack gap="xs" style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Text size="sm" c="dimmed">
            {t('twoFactor.enrol.manual')}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code
              fz="sm"
              py={6}
              data-testid="two-factor-secret"
              data-secret={enrolment.secret}
              style={{ overflowWrap: 'anywhere', userSelect: 'all' }}
            >
              {spacedSecret}
            </Code>
            <CopyButton value={enrolment.secret}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={copy}
                  aria-label={t('twoFactor.enrol.copySecret')}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="xs" c="dimmed">
            {t('twoFactor.enrol.settings')}
          </Text>
        </Stack>
      </Group>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (code.trim() !== '') confirm.mutate(code.trim());
        }}
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t('twoFactor.enrol.code')}
            placeholder="123456"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            w={180}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" loading={confirm.isPending} disabled={code.trim() === ''}>
            {t('twoFactor.enrol.confirm')}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('twoFactor.cancel')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
