import { DEFAULT_QUOTA_PER_UNIT, formatQuota, type QuotaDisplay } from '@gatehouse/shared';
import { useStatus } from '../../api/status';

/** How quota is shown: dollars when display-in-currency is on, else a compact number. */
export function useQuotaDisplay(): QuotaDisplay {
  const status = useStatus();
  return {
    displayInCurrency: status?.display_in_currency ?? true,
    quotaPerUnit: status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT,
  };
}

export function useFormatQuota(): (quota: number) => string {
  const display = useQuotaDisplay();
  return (quota) => formatQuota(quota, display);
}
