import { Button, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { auditActions, auditTargetTypes } from '@gatehouse/shared';
import { FilterForm, TimeRangeFields, useFilterFields } from '../../components/filter-form';
import { AUDIT_TIME_FORMAT, emptyAuditFilters, type AuditFilters } from './audit-filters';

interface AuditFilterFormProps {
  onApply: (filters: AuditFilters) => void;
}

/** Who, what, which target and when: every filter is exact and optional. */
export function AuditFilterForm({ onApply }: AuditFilterFormProps) {
  const { t } = useTranslation();
  const { filters, setFilters, set } = useFilterFields(emptyAuditFilters);
  const label = (key: string) => t(`audit.filter.${key}`);

  return (
    <FilterForm
      columns={3}
      queryLabel={label('query')}
      onQuery={() => onApply(filters)}
      actions={
        <Button
          variant="default"
          onClick={() => {
            setFilters(emptyAuditFilters);
            onApply(emptyAuditFilters);
          }}
        >
          {label('reset')}
        </Button>
      }
    >
      <TextInput
        label={label('actor')}
        description={label('actorHint')}
        value={filters.actor}
        onChange={(event) => set('actor', event.currentTarget.value)}
      />
      <Select
        label={label('action')}
        placeholder={label('any')}
        data={auditActions.map((action) => ({ value: action, label: t(`audit.action.${action}`) }))}
        value={filters.action || null}
        onChange={(value) => set('action', value ?? '')}
        searchable
        clearable
      />
      <Select
        label={label('targetType')}
        placeholder={label('any')}
        data={auditTargetTypes.map((type) => ({ value: type, label: t(`audit.targetType.${type}`) }))}
        value={filters.targetType || null}
        onChange={(value) => set('targetType', value ?? '')}
        clearable
      />
      <TextInput
        label={label('targetId')}
        description={label('targetIdHint')}
        value={filters.targetId}
        onChange={(event) => set('targetId', event.currentTarget.value)}
      />
      <TimeRangeFields
        labels={{ start: label('start'), end: label('end') }}
        format={AUDIT_TIME_FORMAT}
        start={filters.start}
        end={filters.end}
        onChange={set}
      />
    </FilterForm>
  );
}
