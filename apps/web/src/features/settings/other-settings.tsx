import { SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OptionTextarea, OptionTextInput } from './option-fields';
import { OptionsGate } from './options-gate';
import type { OptionValues } from './options-queries';
import { SettingsSection } from './settings-section';
import { UpdateCheck } from './update-check';
import { useOptionForm } from './use-option-form';

const contentKeys = ['Notice', 'About', 'HomePageContent'] as const;
const brandingKeys = ['SystemName', 'Logo', 'Theme', 'Footer'] as const;

function ContentSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(contentKeys, options);
  return (
    <SettingsSection title={t('settings.other.content.title')} form={form}>
      {contentKeys.map((key) => (
        <OptionTextarea
          key={key}
          form={form}
          optionKey={key}
          label={t(`settings.other.content.${key}`)}
          description={t(`settings.other.content.${key}Hint`)}
        />
      ))}
    </SettingsSection>
  );
}

function BrandingSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(brandingKeys, options);
  return (
    <SettingsSection title={t('settings.other.branding.title')} form={form}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <OptionTextInput form={form} optionKey="SystemName" label={t('settings.other.branding.SystemName')} />
        <OptionTextInput
          form={form}
          optionKey="Logo"
          label={t('settings.other.branding.Logo')}
          placeholder="https://example.com/logo.png"
        />
        <OptionTextInput
          form={form}
          optionKey="Theme"
          label={t('settings.other.branding.Theme')}
          description={t('settings.other.branding.ThemeHint')}
        />
      </SimpleGrid>
      <OptionTextarea
        form={form}
        optionKey="Footer"
        monospace
        label={t('settings.other.branding.Footer')}
        description={t('settings.other.branding.FooterHint')}
      />
    </SettingsSection>
  );
}

export function OtherSettings() {
  return (
    <Stack gap="lg">
      <OptionsGate>
        {(options) => (
          <Stack gap="lg">
            <BrandingSection options={options} />
            <ContentSection options={options} />
          </Stack>
        )}
      </OptionsGate>
      <UpdateCheck />
    </Stack>
  );
}
