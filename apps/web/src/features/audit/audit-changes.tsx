import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuditChange, AuditValue } from '@gatehouse/shared';

const breakAnywhere = { wordBreak: 'break-all' } as const;

/** The fields of one entry: old value struck through, then the new one; a secret only says it changed. */
export function AuditChanges({ changes }: { changes: AuditChange[] }) {
  const { t } = useTranslation();
  // An empty text is said in words, neither struck through nor coloured: there was nothing to strike.
  const show = (value: AuditValue, color: string, isOld: boolean) =>
    value === '' ? (
      <Text size="sm" c="dimmed" fs="italic">
        {t('audit.emptyText')}
      </Text>
    ) : (
      <Text size="sm" c={color} td={isOld ? 'line-through' : undefined} style={breakAnywhere}>
        {String(value)}
      </Text>
    );

  return (
    <Stack gap={8} data-testid="audit-changes">
      {changes.map((change) => (
        <div key={change.field}>
          <Text size="xs" ff="monospace" fw={600} style={breakAnywhere}>
            {change.field}
          </Text>
          {change.masked ? (
            <Badge size="sm" variant="light" color="gray" tt="none">
              {t('audit.changed')}
            </Badge>
          ) : (
            <Group gap={6} wrap="wrap" align="center">
              {change.before !== null && show(change.before, 'red.8', true)}
              {change.before !== null && change.after !== null && <IconArrowRight size={12} />}
              {change.after !== null && show(change.after, 'teal.8', false)}
            </Group>
          )}
        </div>
      ))}
    </Stack>
  );
}
