import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuditChange, AuditValue } from '@gatehouse/shared';

const breakAnywhere = { wordBreak: 'break-all' } as const;

/** The fields of one entry: old value struck through, then the new one; a secret only says it changed. */
export function AuditChanges({ changes }: { changes: AuditChange[] }) {
  const { t } = useTranslation();
  const show = (value: AuditValue) =>
    value === null ? t('audit.none') : value === '' ? t('audit.emptyText') : String(value);

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
              {change.before !== null && (
                <Text size="sm" c="red.8" td="line-through" style={breakAnywhere}>
                  {show(change.before)}
                </Text>
              )}
              {change.before !== null && change.after !== null && <IconArrowRight size={12} />}
              {change.after !== null && (
                <Text size="sm" c="teal.8" style={breakAnywhere}>
                  {show(change.after)}
                </Text>
              )}
            </Group>
          )}
        </div>
      ))}
    </Stack>
  );
}
