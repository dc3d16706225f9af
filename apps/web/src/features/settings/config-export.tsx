import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SettingsSection } from './settings-section';

/**
 * Root's download of the configuration as a file (channels, prices, groups, options). The server writes every
 * secret as a ${VARIABLE} placeholder, so no key reaches the browser; a plain link lets the browser save it.
 */
export function ConfigExport() {
  const { t } = useTranslation();
  return (
    <SettingsSection
      title={t('settings.system.configExport.title')}
      description={t('settings.system.configExport.description')}
    >
      <Group>
        <Button
          component="a"
          href="/api/option/config-export"
          download="gatehouse-config.yaml"
          variant="light"
        >
          {t('settings.system.configExport.download')}
        </Button>
      </Group>
    </SettingsSection>
  );
}
