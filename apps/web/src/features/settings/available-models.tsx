import { Badge, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { availableModelsQueryOptions } from './options-queries';

/** The models the user's groups can call, read again each time personal settings is shown. */
export function AvailableModels() {
  const { t } = useTranslation();
  const { data: models, isPending } = useQuery({
    ...availableModelsQueryOptions(),
    refetchOnMount: 'always',
  });
  if (isPending) return <Loader size="sm" />;
  if (!models || models.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('settings.personal.noModels')}
      </Text>
    );
  }
  return (
    <Group gap={6}>
      {models.map((entry) => (
        <Badge key={entry.model} variant="light" tt="none">
          {entry.model}
        </Badge>
      ))}
    </Group>
  );
}
