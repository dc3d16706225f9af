import { Center, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The placeholder shown while a page's code or data loads: 'loading {page} ...'. */
export function PageLoader({ page }: { page?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('common.loadingPage', { page: page ?? t('common.page') })}</Text>
      </Group>
    </Center>
  );
}
