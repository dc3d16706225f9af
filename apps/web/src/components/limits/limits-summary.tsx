import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCompactNumber, type LimitFields, type ModelLimits } from '@gatehouse/shared';

interface LimitsSummaryProps {
  limits: LimitFields;
  modelLimits?: ModelLimits;
}

/** A list cell: one small badge per limit set ("60 RPM", "4 parallel", "1.2M / month"), a dash when none. */
export function LimitsSummary({ limits, modelLimits = {} }: LimitsSummaryProps) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (limits.rpm_limit > 0)
    parts.push(t('limits.badge.rpm', { value: formatCompactNumber(limits.rpm_limit) }));
  if (limits.tpm_limit > 0)
    parts.push(t('limits.badge.tpm', { value: formatCompactNumber(limits.tpm_limit) }));
  if (limits.max_parallel_requests > 0) {
    parts.push(t('limits.badge.parallel', { value: limits.max_parallel_requests }));
  }
  if (limits.budget > 0 && limits.budget_period !== '') {
    parts.push(
      t('limits.badge.budget', {
        value: formatCompactNumber(limits.budget),
        period: t(`limits.periodShort.${limits.budget_period}`),
      }),
    );
  }
  const models = Object.keys(modelLimits);
  if (parts.length === 0 && models.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      {parts.map((part) => (
        <Badge
          key={part}
          size="sm"
          variant="light"
          color="grape"
          tt="none"
          style={{ minWidth: 'max-content' }}
        >
          {part}
        </Badge>
      ))}
      {models.length > 0 && (
        <Tooltip label={models.join(', ')} withArrow>
          <Badge size="sm" variant="outline" color="grape" tt="none" style={{ minWidth: 'max-content' }}>
            {t('limits.badge.models', { count: models.length })}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}
