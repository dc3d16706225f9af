import { useState } from 'react';
import { Button, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type AuditEntry } from '@gatehouse/shared';
import { AuditChanges } from './audit-changes';
import { AuditActionBadge, AuditTarget, useActorName } from './audit-labels';

function AuditCard({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const actorName = useActorName();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between" wrap="nowrap" gap="xs" mb={4}>
        <AuditActionBadge action={entry.action} />
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatTimestamp(entry.created_at)}
        </Text>
      </Group>
      <AuditTarget entry={entry} />
      <Text size="xs" c="dimmed">
        {entry.ip
          ? t('audit.byFrom', { actor: actorName(entry), ip: entry.ip })
          : t('audit.by', { actor: actorName(entry) })}
      </Text>
      <Button
        variant="subtle"
        size="compact-sm"
        px={0}
        mt={4}
        leftSection={isOpen ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        onClick={() => setIsOpen((open) => !open)}
        aria-expanded={isOpen}
      >
        {t('audit.fieldCount', { count: entry.changes.length })}
      </Button>
      <Collapse in={isOpen}>
        <Paper bg="var(--mantine-color-default-hover)" p="xs" mt={4} radius="sm">
          <AuditChanges changes={entry.changes} />
        </Paper>
      </Collapse>
    </Paper>
  );
}

/** The audit log on a phone: one card an entry, its changes folded away until opened. */
export function AuditCards({ entries }: { entries: AuditEntry[] }) {
  return (
    <Stack gap="sm">
      {entries.map((entry) => (
        <AuditCard key={entry.id} entry={entry} />
      ))}
    </Stack>
  );
}
