import { Alert, Button, Code, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconCopy, IconDownload, IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../api/toast';
import { downloadTextFile } from '../redemptions/download-text-file';
import { copyText } from '../settings/copy-text';
import { showManualCopy } from '../tokens/manual-copy-modal';

/** The recovery codes, shown once (the server keeps only their hashes): copy, download, then done. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const copy = async () => {
    if (await copyText(text)) showSuccess(t('twoFactor.recovery.copied'));
    else showManualCopy(t('twoFactor.recovery.title'), text);
  };
  return (
    <Stack gap="sm">
      <Alert color="yellow" icon={<IconAlertTriangle />} title={t('twoFactor.recovery.title')}>
        {t('twoFactor.recovery.saveNow')}
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs" data-testid="recovery-codes">
        {codes.map((code) => (
          <Code key={code} ta="center" fz="sm" py={6}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <Button variant="default" leftSection={<IconCopy size={16} />} onClick={() => void copy()}>
          {t('twoFactor.recovery.copy')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() => downloadTextFile('recovery-codes.txt', `${text}\n`)}
        >
          {t('twoFactor.recovery.download')}
        </Button>
        <Button onClick={onDone}>{t('twoFactor.recovery.done')}</Button>
      </Group>
    </Stack>
  );
}
