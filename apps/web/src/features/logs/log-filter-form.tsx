import { Button, Select, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LogType } from '@gatehouse/shared';
import { FilterForm, TimeRangeFields, useFilterFields } from '../../components/filter-form';
import { LOG_TIME_FORMAT, type LogFilters } from './log-filters';

interface LogFilterFormProps {
  initialFilters: LogFilters;
  isAdmin: boolean;
  onApply: (filters: LogFilters) => void;
  onExport: (filters: LogFilters) => void;
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
export function LogFilterForm({ initialFilters, isAdmin, onApply, onExport }: LogFilterFormProps) {
  const { t } = useTranslation();
  const { filters, set } = useFilterFields(initialFilters);
  const label = (key: string) => t(`logs.filter.${key}`);
  const textField = (field: 'tokenName' | 'modelName' | 'username' | 'channel') => (
    <TextInput
      label={label(field)}
      inputMode={field === 'channel' ? 'numeric' : undefined}
      value={filters[field]}
      onChange={(event) => set(field, event.currentTarget.value)}
    />
  );

  return (
    <FilterForm
      columns={4}
      queryLabel={label('query')}
      onQuery={() => onApply(filters)}
      actions={
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => onExport(filters)}>
          {label('export')}
        </Button>
      }
    >
      <Select
        label={label('type')}
        data={Object.entries(typeLabels).map(([value, key]) => ({ value, label: t(key) }))}
        value={filters.type}
        onChange={(value) => set('type', value ?? String(LogType.all))}
        allowDeselect={false}
      />
      <TimeRangeFields
        labels={{ start: label('start'), end: label('end') }}
        format={LOG_TIME_FORMAT}
        start={filters.start}
        end={filters.end}
        onChange={set}
      />
      {textField('tokenName')}
      {textField('modelName')}
      {isAdmin && (
        <>
          {textField('username')}
          {textField('channel')}
        </>
      )}
    </FilterForm>
  );
}
