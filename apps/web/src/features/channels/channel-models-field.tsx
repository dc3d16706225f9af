import { useState } from 'react';
import { Button, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface ChannelModelsFieldProps {
  value: string[];
  onChange: (models: string[]) => void;
  /** the known models of the selected type (GET /api/models) */
  knownModels: readonly string[];
  error?: string;
}

const unique = (names: readonly string[]) => [...new Set(names)];

/** Models: pick from the type's known models, fill them all, clear, or add names the list does not know. */
export function ChannelModelsField({ value, onChange, knownModels, error }: ChannelModelsFieldProps) {
  const { t } = useTranslation();
  const [custom, setCustom] = useState('');

  const addCustom = () => {
    const names = custom
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.length === 0) return;
    onChange(unique([...value, ...names]));
    setCustom('');
  };

  return (
    <Stack gap="xs">
      <MultiSelect
        label={t('channels.form.models')}
        placeholder={value.length === 0 ? t('channels.form.modelsPlaceholder') : undefined}
        data={unique([...knownModels, ...value])}
        value={value}
        onChange={onChange}
        searchable
        hidePickedOptions
        maxDropdownHeight={280}
        error={error}
        withAsterisk
        comboboxProps={{ withinPortal: true }}
      />
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Button variant="light" size="xs" onClick={() => onChange(unique([...value, ...knownModels]))}>
          {t('channels.form.fillRelated')}
        </Button>
        <Button variant="light" color="red" size="xs" onClick={() => onChange([])}>
          {t('channels.form.clearModels')}
        </Button>
        <TextInput
          size="xs"
          aria-label={t('channels.form.customModel')}
          placeholder={t('channels.form.customModelPlaceholder')}
          value={custom}
          onChange={(event) => setCustom(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addCustom();
            }
          }}
          style={{ flex: 1, minWidth: 220 }}
          rightSectionWidth={64}
          rightSection={
            <Button size="compact-xs" variant="subtle" onClick={addCustom}>
              {t('channels.form.addCustomModel')}
            </Button>
          }
        />
      </Group>
    </Stack>
  );
}
