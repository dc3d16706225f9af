import { NumberInput, Select, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BUDGET_PERIODS, type BudgetPeriod } from '@gatehouse/shared';
import type { LimitFormValues } from './limit-form-values';

interface LimitInputsProps {
  value: LimitFormValues;
  onChange: (value: LimitFormValues) => void;
  /** an i18n key from validateLimits */
  error?: string | null;
}

/** RPM, TPM, parallel requests and a budget per period, two to a row (one on a phone); blank or 0 = unlimited. */
export function LimitInputs({ value, onChange, error }: LimitInputsProps) {
  const { t } = useTranslation();
  const number = (field: 'rpm_limit' | 'tpm_limit' | 'max_parallel_requests' | 'budget', step: number) => (
    <NumberInput
      label={t(`limits.field.${field}`)}
      placeholder={t('limits.unlimited')}
      min={0}
      step={step}
      allowDecimal={false}
      allowNegative={false}
      thousandSeparator=","
      value={value[field] === 0 ? '' : value[field]}
      onChange={(next) => onChange({ ...value, [field]: next })}
    />
  );
  return (
    <div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        {number('rpm_limit', 10)}
        {number('tpm_limit', 10000)}
        {number('max_parallel_requests', 1)}
        {number('budget', 500000)}
        <Select
          label={t('limits.field.budget_period')}
          data={BUDGET_PERIODS.map((period) => ({
            value: period,
            label: t(`limits.period.${period || 'none'}`),
          }))}
          value={value.budget_period}
          allowDeselect={false}
          onChange={(next) => onChange({ ...value, budget_period: (next ?? '') as BudgetPeriod })}
        />
      </SimpleGrid>
      <div style={{ fontSize: 'var(--mantine-font-size-xs)', marginTop: 6 }}>
        {error ? (
          <span style={{ color: 'var(--mantine-color-error)' }}>{t(error)}</span>
        ) : (
          <span style={{ color: 'var(--mantine-color-dimmed)' }}>{t('limits.hint')}</span>
        )}
      </div>
    </div>
  );
}
