import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '../../api/status';
import { showSuccess } from '../../api/toast';
import { MarkdownContent } from '../../components/markdown-content';
import { getLatestRelease } from './options-queries';
import { SettingsSection } from './settings-section';

/** Compares the running version with the latest release (read by the server from RELEASES_URL). */
export function UpdateCheck() {
  const { t } = useTranslation();
  const status = useStatus();
  const [isOpen, { open, close }] = useDisclosure(false);
  const check = useMutation({
    mutationFn: getLatestRelease,
    onSuccess: (release) => {
      if (release.is_latest) showSuccess(t('settings.other.update.latest', { tag: release.tag_name }));
      else open();
    },
  });
  const release = check.data;

  return (
    <SettingsSection title={t('settings.other.update.title')}>
      <Group gap="md">
        <Text size="sm">{t('settings.other.update.current', { version: status?.version ?? '' })}</Text>
        <Button
          variant="light"
          leftSection={<IconRefresh size={16} />}
          onClick={() => check.mutate()}
          loading={check.isPending}
        >
          {t('settings.other.update.check')}
        </Button>
      </Group>
      {check.error && (
        <Text size="sm" c="red">
          {check.error.message}
        </Text>
      )}
      <Modal opened={isOpen && release !== undefined} onClose={close} title={release?.name} size="lg">
        {release && (
          <Stack gap="md">
            <Text size="sm">
              {t('settings.other.update.available', {
                tag: release.tag_name,
                version: release.current_version,
              })}
            </Text>
            {release.body && <MarkdownContent markdown={release.body} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('settings.cancel')}
              </Button>
              {release.html_url && (
                <Button component="a" href={release.html_url} target="_blank" rel="noreferrer">
                  {t('settings.other.update.open')}
                </Button>
              )}
            </Group>
          </Stack>
        )}
      </Modal>
    </SettingsSection>
  );
}
