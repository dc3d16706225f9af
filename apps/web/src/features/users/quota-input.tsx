import { NumberInput } from '@mantine/core';
import { formatCompactNumber, formatQuota } from '@gatehouse/shared';
import { useQuotaDisplay } from './use-quota-display';

interface QuotaInputProps {
  label: string;
  /** the hint under a valid amount: the quota as the console shows it, and its count written short */
  hint: (shown: { amount: string; compact: string }) => string;
  min: number;
  step: number;
  disabled?: boolean;
  error?: string;
  value: number | string;
  onChange: (value: number | string) => void;
  onBlur?: () => void;
}

/** A quota in its raw units: a whole, non-negative count with thousands separators, shown as money or count below. */
export function QuotaInput({ label, hint, value, ...field }: QuotaInputProps) {
  const quotaDisplay = useQuotaDisplay();
  const amount = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  return (
    <NumberInput
      label={label}
      description={
        Number.isFinite(amount)
          ? hint({ amount: formatQuota(amount, quotaDisplay), compact: formatCompactNumber(amount) })
          : undefined
      }
      allowDecimal={false}
      allowNegative={false}
      thousandSeparator=","
      value={value}
      {...field}
    />
  );
}
