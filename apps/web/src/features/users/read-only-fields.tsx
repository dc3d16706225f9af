import { SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '@gatehouse/shared';

/** A value the form shows but never sends (username, GitHub id, WeChat id and e-mail). */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <TextInput label={label} value={value} readOnly variant="filled" placeholder={t('users.self.notBound')} />
  );
}

/** The external accounts bound to a user, read-only on both the self and the admin edit forms. */
export function BoundAccountFields({ user }: { user: Pick<User, 'github_id' | 'wechat_id' | 'email'> }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <ReadOnlyField label={t('users.self.githubId')} value={user.github_id} />
      <ReadOnlyField label={t('users.self.wechatId')} value={user.wechat_id} />
      <ReadOnlyField label={t('users.self.email')} value={user.email} />
    </SimpleGrid>
  );
}
