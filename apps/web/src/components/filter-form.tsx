import { useState, type ReactNode } from 'react';
import { Button, Group, SimpleGrid } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconSearch } from '@tabler/icons-react';

/** The filters a form edits before they are applied, and a setter of one field. */
export function useFilterFields<Filters extends object>(initialFilters: Filters) {
  const [filters, setFilters] = useState(initialFilters);
  const set = <Field extends keyof Filters>(field: Field, value: Filters[Field]) =>
    setFilters((current) => ({ ...current, [field]: value }));
  return { filters, setFilters, set };
}

interface FilterFormProps {
  /** columns of fields on a wide screen (one on a phone, two on a small screen) */
  columns: number;
  queryLabel: string;
  onQuery: () => void;
  /** buttons after the query button */
  actions?: ReactNode;
  children: ReactNode;
}

/** A list page's filter form: its fields in a grid, then the query button (Enter also queries) and any others. */
export function FilterForm({ columns, queryLabel, onQuery, actions, children }: FilterFormProps) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onQuery();
      }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: columns }} spacing="sm" mb="sm">
        {children}
      </SimpleGrid>
      <Group gap="sm" mb="md">
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {queryLabel}
        </Button>
        {actions}
      </Group>
    </form>
  );
}

interface TimeRangeFieldsProps {
  labels: { start: string; end: string };
  /** how the times are written, e.g. 'YYYY-MM-DD HH:mm:ss'; null is no bound */
  format: string;
  start: string | null;
  end: string | null;
  onChange: (bound: 'start' | 'end', value: string | null) => void;
}

/** From and to, to the second, each optional. */
export function TimeRangeFields({ labels, format, start, end, onChange }: TimeRangeFieldsProps) {
  return (
    <>
      {(['start', 'end'] as const).map((bound) => (
        <DateTimePicker
          key={bound}
          label={labels[bound]}
          value={bound === 'start' ? start : end}
          onChange={(value) => onChange(bound, value)}
          withSeconds
          clearable
          valueFormat={format}
        />
      ))}
    </>
  );
}
