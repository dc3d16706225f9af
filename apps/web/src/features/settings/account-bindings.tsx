import { SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { selfQueryOptions } from '../users/users-queries';

/**
 * The accounts bound to the signed-in user, read-only. The accounts feature adds the bind buttons here
 * (chat app, code hosting, workplace chat, e-mail).
 */
export function AccountBindings() {
  const { t } = useTranslation();
  const { data: user } = useQuery(selfQueryOptions());
  const bindings = [
    { key: 'email', label: t('settings.personal.bindings.email'), value: user?.email },
    { key: 'github', label: t('settings.personal.bindings.github'), value: user?.github_id },
    { key: 'wechat', label: t('settings.personal.bindings.wechat'), value: user?.wechat_id },
    { key: 'lark', label: t('settings.personal.bindings.lark'), value: user?.lark_id },
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {bindings.map((binding) => (
        <TextInput
          key={binding.key}
          label={binding.label}
          value={binding.value ?? ''}
          placeholder={t('settings.personal.bindings.notBound')}
          readOnly
          variant="filled"
        />
      ))}
    </SimpleGrid>
  );
}
