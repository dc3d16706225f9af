import { useState } from 'react';
import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { auditActions, auditTargetTypes } from '@gatehouse/shared';
import { AUDIT_TIME_FORMAT, emptyAuditFilters, type AuditFilters } from './audit-filters';

interface AuditFilterFormProps {
  onApply: (filters: AuditFilters) => void;
}

/** Who, what, which target and when: every filter is exact and optional. */
export function AuditFilterForm({ onApply }: AuditFilterFormProps) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState(emptyAuditFilters);
  const set = <Field extends keyof AuditFilters>(field: Field, value: AuditFilters[Field]) =>
    setFilters((current) => ({ ...current, [field]: value }));
  const label = (key: string) => t(`audit.filter.${key}`);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onApply(filters);
      }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" mb="sm">
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
        <DateTimePicker
          label={label('start')}
          value={filters.start}
          onChange={(value) => set('start', value)}
          withSeconds
          clearable
          valueFormat={AUDIT_TIME_FORMAT}
        />
        <DateTimePicker
          label={label('end')}
          value={filters.end}
          onChange={(value) => set('end', value)}
          withSeconds
          clearable
          valueFormat={AUDIT_TIME_FORMAT}
        />
      </SimpleGrid>
      <Group gap="sm" mb="md">
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {label('query')}
        </Button>
        <Button
          variant="default"
          onClick={() => {
            setFilters(emptyAuditFilters);
            onApply(emptyAuditFilters);
          }}
        >
          {label('reset')}
        </Button>
      </Group>
    </form>
  );
}
