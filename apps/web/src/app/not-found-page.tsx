import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py={80} gap="md">
      <Title order={1} c="dimmed" fz={64}>
        404
      </Title>
      <Text size="lg">{t('common.notFound')}</Text>
      <Button component={Link} to="/" variant="light">
        {t('common.backHome')}
      </Button>
    </Stack>
  );
}
