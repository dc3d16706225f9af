import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AUDIT_SYSTEM_ACTOR, type AuditEntry } from '@gatehouse/shared';

/** One colour per verb, whatever the target: creating is green, deleting red, switching off orange. */
const verbColors: Record<string, string> = {
  create: 'green',
  update: 'blue',
  enable: 'teal',
  disable: 'orange',
  delete: 'red',
  promote: 'grape',
  demote: 'grape',
  two_factor_reset: 'yellow',
  clear: 'red',
};

export function AuditActionBadge({ action }: { action: string }) {
  const { t } = useTranslation();
  const verb = action.slice(action.indexOf('.') + 1);
  return (
    <Badge variant="light" color={verbColors[verb] ?? 'gray'} tt="none" style={{ minWidth: 'max-content' }}>
      {t(`audit.action.${action}`, { defaultValue: action })}
    </Badge>
  );
}

/** "alice" or "System", with the address below in the table. */
export function useActorName() {
  const { t } = useTranslation();
  return (entry: AuditEntry) =>
    entry.actor_id === 0 && entry.actor_name === AUDIT_SYSTEM_ACTOR ? t('audit.system') : entry.actor_name;
}

/** "Channel #3 primary" */
export function AuditTarget({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const type = t(`audit.targetType.${entry.target_type}`, { defaultValue: entry.target_type });
  const id = entry.target_type === 'option' || entry.target_id === '' ? '' : ` #${entry.target_id}`;
  const name = entry.target_name && entry.target_name !== entry.target_id ? ` ${entry.target_name}` : '';
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {type}
      {id}
      {entry.target_type === 'option' ? ` ${entry.target_id}` : name}
    </Text>
  );
}
