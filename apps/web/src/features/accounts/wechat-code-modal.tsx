import { useState } from 'react';
import { Button, Center, Group, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStatus } from '../../api/status';

interface WeChatCodeModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  isPending: boolean;
  onSubmit: (code: string) => void;
}

/**
 * The chat-app dialog of login and binding: the official account's QR code, and the code it
 * replies with, valid three minutes. An empty code does nothing.
 */
export function WeChatCodeModal({
  opened,
  onClose,
  title,
  submitLabel,
  isPending,
  onSubmit,
}: WeChatCodeModalProps) {
  const { t } = useTranslation();
  const status = useStatus();
  const [code, setCode] = useState('');
  const submit = () => {
    if (code.trim()) onSubmit(code.trim());
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        {status?.wechat_qrcode && (
          <Center>
            <Image
              src={status.wechat_qrcode}
              alt={t('accounts.wechat.qrAlt')}
              w={200}
              h={200}
              fit="contain"
            />
          </Center>
        )}
        <Text size="sm" c="dimmed">
          {t('accounts.wechat.instructions')}
        </Text>
        <TextInput
          label={t('accounts.wechat.code')}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit();
          }}
          autoComplete="one-time-code"
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('accounts.cancel')}
          </Button>
          <Button onClick={submit} loading={isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
