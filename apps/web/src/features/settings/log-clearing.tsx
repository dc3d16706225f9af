import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { modals } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { showError, showSuccess } from '../../api/toast';
import { clearLogsBefore } from './options-queries';
import { SettingsSection } from './settings-section';

/** The default cut-off is 30 days (2,592,000 s) before now. */
const DEFAULT_LOG_AGE_SECONDS = 2_592_000;

export function LogClearing() {
  const { t } = useTranslation();
  const [cutOff, setCutOff] = useState<string | null>(() =>
    dayjs().subtract(DEFAULT_LOG_AGE_SECONDS, 'second').format('YYYY-MM-DD HH:mm:ss'),
  );
  const mutation = useMutation({
    mutationFn: (timestamp: number) => clearLogsBefore(timestamp),
    onSuccess: (count) => showSuccess(t('settings.operation.logs.cleaned', { n: count })),
    onError: (error) => showError(t('settings.operation.logs.failed', { message: error.message })),
  });

  const clear = () => {
    if (!cutOff) return;
    const timestamp = dayjs(cutOff).unix();
    modals.openConfirmModal({
      title: t('settings.operation.logs.clear'),
      children: (
        <Text size="sm">
          {t('settings.operation.logs.confirm', { time: dayjs(cutOff).format('YYYY-MM-DD HH:mm:ss') })}
        </Text>
      ),
      labels: { confirm: t('settings.confirm'), cancel: t('settings.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => mutation.mutate(timestamp),
    });
  };

  return (
    <SettingsSection
      title={t('settings.operation.logs.title')}
      description={t('settings.operation.logs.description')}
    >
      <Group align="flex-end" gap="sm">
        <DateTimePicker
          label={t('settings.operation.logs.cutOff')}
          value={cutOff}
          onChange={setCutOff}
          withSeconds
          valueFormat="YYYY-MM-DD HH:mm:ss"
          w={{ base: '100%', xs: 260 }}
        />
        <Button color="red" variant="light" onClick={clear} loading={mutation.isPending} disabled={!cutOff}>
          {t('settings.operation.logs.clear')}
        </Button>
      </Group>
    </SettingsSection>
  );
}
