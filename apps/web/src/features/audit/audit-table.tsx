import { useMemo } from 'react';
import { Group, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type AuditEntry } from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { AuditChanges } from './audit-changes';
import { AuditActionBadge, AuditTarget, useActorName } from './audit-labels';

/** The audit table's columns; a row clicked open shows its changed fields in the last column. */
export function useAuditColumns(isExpanded: (entry: AuditEntry) => boolean): DataTableColumn<AuditEntry>[] {
  const { t } = useTranslation();
  const actorName = useActorName();
  return useMemo(() => {
    const header = (key: string) => t(`audit.column.${key}`);
    return [
      {
        key: 'time',
        header: header('time'),
        render: (entry) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatTimestamp(entry.created_at)}
          </Text>
        ),
        sortValue: (entry) => entry.created_at,
      },
      {
        key: 'actor',
        header: header('actor'),
        render: (entry) => (
          <>
            <Text size="sm">{actorName(entry)}</Text>
            {entry.ip && (
              <Text size="xs" c="dimmed" ff="monospace">
                {entry.ip}
              </Text>
            )}
          </>
        ),
        sortValue: (entry) => entry.actor_name,
      },
      {
        key: 'action',
        header: header('action'),
        render: (entry) => <AuditActionBadge action={entry.action} />,
        sortValue: (entry) => entry.action,
      },
      {
        key: 'target',
        header: header('target'),
        render: (entry) => <AuditTarget entry={entry} />,
        sortValue: (entry) => `${entry.target_type} ${entry.target_id.padStart(12, '0')}`,
      },
      {
        key: 'changes',
        header: header('changes'),
        width: '40%',
        render: (entry) =>
          isExpanded(entry) ? (
            <Group gap={6} align="flex-start" wrap="nowrap">
              <IconChevronDown size={14} style={{ flexShrink: 0, marginTop: 2 }} />
              <AuditChanges changes={entry.changes} />
            </Group>
          ) : (
            <Group gap={6} wrap="nowrap">
              <IconChevronRight size={14} style={{ flexShrink: 0 }} />
              <Text size="sm" c="dimmed" lineClamp={1}>
                {t('audit.fieldCount', { count: entry.changes.length })}:{' '}
                {entry.changes.map((change) => change.field).join(', ')}
              </Text>
            </Group>
          ),
      },
    ];
  }, [t, actorName, isExpanded]);
}
