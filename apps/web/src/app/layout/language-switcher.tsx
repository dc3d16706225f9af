import { ActionIcon, Menu } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, type Language } from '../../i18n/i18n';

// Each language is named in itself, so a visitor can find theirs whatever the current language is.
const languageNames: Record<Language, string> = { en: 'English', zh: '中文' };

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('common.changeLanguage')}>
          <IconLanguage size={20} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {(Object.keys(languageNames) as Language[]).map((language) => (
          <Menu.Item
            key={language}
            onClick={() => changeLanguage(language)}
            fw={i18n.resolvedLanguage === language ? 600 : undefined}
            lang={language}
          >
            {languageNames[language]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
