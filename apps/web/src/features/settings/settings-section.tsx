import type { ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionForm } from './use-option-form';

interface SettingsSectionProps {
  title: string;
  description?: ReactNode;
  /** the fields' form: shows a save button that sends what changed */
  form?: OptionForm;
  saveLabel?: string;
  children: ReactNode;
}

export function SettingsSection({ title, description, form, saveLabel, children }: SettingsSectionProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <div>
          <Title order={4}>{title}</Title>
          {description && (
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          )}
        </div>
        {children}
        {form && (
          <Group justify="flex-end">
            <Button onClick={() => void form.save()} loading={form.isSaving} disabled={!form.isDirty}>
              {saveLabel ?? t('settings.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
