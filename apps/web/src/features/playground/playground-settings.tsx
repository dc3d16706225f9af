import { Group, NumberInput, Select, Slider, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Token } from '@gatehouse/shared';
import type { ChatSettings } from './use-playground-chat';

export interface PlaygroundSettingsValue extends Omit<ChatSettings, 'apiKey'> {
  /** the chosen key's id, as text (a Select's value) */
  tokenId: string | null;
}

interface PlaygroundSettingsProps {
  keys: Token[];
  models: string[];
  value: PlaygroundSettingsValue;
  onChange: (change: Partial<PlaygroundSettingsValue>) => void;
}

/** The key, the model and the sampling settings the next request uses. */
export function PlaygroundSettings({ keys, models, value, onChange }: PlaygroundSettingsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Select
        label={t('playground.settings.key')}
        placeholder={t('playground.settings.keyPlaceholder')}
        data={keys.map((key) => ({ value: String(key.id), label: key.name || `#${key.id}` }))}
        value={value.tokenId}
        onChange={(tokenId) => onChange({ tokenId })}
        allowDeselect={false}
        searchable
      />
      <Select
        label={t('playground.settings.model')}
        placeholder={t('playground.settings.modelPlaceholder')}
        data={models}
        value={value.model || null}
        onChange={(model) => onChange({ model: model ?? '' })}
        nothingFoundMessage={t('playground.settings.noModels')}
        allowDeselect={false}
        searchable
      />
      <Textarea
        label={t('playground.settings.systemPrompt')}
        placeholder={t('playground.settings.systemPromptPlaceholder')}
        value={value.systemPrompt}
        onChange={(event) => onChange({ systemPrompt: event.currentTarget.value })}
        autosize
        minRows={2}
        maxRows={8}
      />
      <div>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {t('playground.settings.temperature')}
          </Text>
          <Text size="sm" c="dimmed">
            {value.temperature.toFixed(1)}
          </Text>
        </Group>
        <Slider
          thumbLabel={t('playground.settings.temperature')}
          min={0}
          max={2}
          step={0.1}
          value={value.temperature}
          onChange={(temperature) => onChange({ temperature })}
          label={(temperature) => temperature.toFixed(1)}
        />
      </div>
      <NumberInput
        label={t('playground.settings.maxTokens')}
        placeholder={t('playground.settings.maxTokensPlaceholder')}
        value={value.maxTokens}
        onChange={(maxTokens) => onChange({ maxTokens: typeof maxTokens === 'number' ? maxTokens : '' })}
        min={1}
        allowDecimal={false}
        allowNegative={false}
      />
    </Stack>
  );
}
