import { useState } from 'react';
import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LogType } from '@gatehouse/shared';
import { LOG_TIME_FORMAT, type LogFilters } from './log-filters';

interface LogFilterFormProps {
  initialFilters: LogFilters;
  isAdmin: boolean;
  onApply: (filters: LogFilters) => void;
  onExport: (filters: LogFilters) => void;
  isExporting: boolean;
}

const typeLabels: Record<number, string> = {
  [LogType.all]: 'log.type.all',
  [LogType.topup]: 'log.type.topup',
  [LogType.consume]: 'log.type.consume',
  [LogType.manage]: 'log.type.manage',
  [LogType.system]: 'log.type.system',
  [LogType.error]: 'log.type.error',
};

/** The log filter form: type, time range, key and model; admins also username and channel. */
export function LogFilterForm({
  initialFilters,
  isAdmin,
  onApply,
  onExport,
  isExporting,
}: LogFilterFormProps) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState(initialFilters);
  const set = <Field extends keyof LogFilters>(field: Field, value: LogFilters[Field]) =>
    setFilters((current) => ({ ...current, [field]: value }));
  const label = (key: string) => t(`logs.filter.${key}`);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onApply(filters);
      }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" mb="sm">
        <Select
          label={label('type')}
          data={Object.entries(typeLabels).map(([value, key]) => ({ value, label: t(key) }))}
          value={filters.type}
          onChange={(value) => set('type', value ?? String(LogType.all))}
          allowDeselect={false}
        />
        <DateTimePicker
          label={label('start')}
          value={filters.start}
          onChange={(value) => set('start', value)}
          withSeconds
          clearable
          valueFormat={LOG_TIME_FORMAT}
        />
        <DateTimePicker
          label={label('end')}
          value={filters.end}
          onChange={(value) => set('end', value)}
          withSeconds
          clearable
          valueFormat={LOG_TIME_FORMAT}
        />
        <TextInput
          label={label('tokenName')}
          value={filters.tokenName}
          onChange={(event) => set('tokenName', event.currentTarget.value)}
        />
        <TextInput
          label={label('modelName')}
          value={filters.modelName}
          onChange={(event) => set('modelName', event.currentTarget.value)}
        />
        {isAdmin && (
          <>
            <TextInput
              label={label('username')}
              value={filters.username}
              onChange={(event) => set('username', event.currentTarget.value)}
            />
            <TextInput
              label={label('channel')}
              inputMode="numeric"
              value={filters.channel}
              onChange={(event) => set('channel', event.currentTarget.value)}
            />
          </>
        )}
      </SimpleGrid>
      <Group gap="sm" mb="md">
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {label('query')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          loading={isExporting}
          onClick={() => onExport(filters)}
        >
          {label('export')}
        </Button>
      </Group>
    </form>
  );
}
