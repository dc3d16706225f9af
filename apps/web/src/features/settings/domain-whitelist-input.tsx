import { TagsInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionForm } from './use-option-form';

const OPTION_KEY = 'EmailDomainWhitelist';

/** The allowed e-mail domains as tags: Enter or a comma adds one; blanks and repeats are not added. */
export function DomainWhitelistInput({ form }: { form: OptionForm }) {
  const { t } = useTranslation();
  const domains = (form.values[OPTION_KEY] ?? '').split(',').filter(Boolean);
  return (
    <TagsInput
      label={t('settings.system.domain.whitelist')}
      description={t('settings.system.domain.whitelistHint')}
      placeholder={t('settings.system.domain.placeholder')}
      value={domains}
      onChange={(next) =>
        form.setValue(
          OPTION_KEY,
          [...new Set(next.map((domain) => domain.trim().toLowerCase()).filter(Boolean))].join(','),
        )
      }
      splitChars={[',', ' ']}
      allowDuplicates={false}
      clearable
      error={form.errors[OPTION_KEY]}
    />
  );
}
