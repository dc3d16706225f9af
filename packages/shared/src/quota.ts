/** Quota display. 500 000 quota = 1 US dollar unless QuotaPerUnit says otherwise. */

export const DEFAULT_QUOTA_PER_UNIT = 500_000;

export interface QuotaDisplay {
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/** A compact number: k from 10 000, M from one million, B from one billion. */
export function formatCompactNumber(value: number): string {
  const absolute = Math.abs(value);
  if (absolute >= 1e9) return `${trimDecimals(value / 1e9)}B`;
  if (absolute >= 1e6) return `${trimDecimals(value / 1e6)}M`;
  if (absolute >= 1e4) return `${trimDecimals(value / 1e3)}k`;
  return String(value);
}

function trimDecimals(value: number): string {
  return String(Number(value.toFixed(1)));
}

/** Dollars with `digits` decimals when display-in-currency is on, else the compact number. */
export function formatQuota(quota: number, display: QuotaDisplay, digits = 2): string {
  if (display.displayInCurrency) {
    const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
    return `$${(quota / perUnit).toFixed(digits)}`;
  }
  return formatCompactNumber(quota);
}

/** Remaining balances show 2 decimals; log rows 6. */
export const formatRemainingQuota = (quota: number, display: QuotaDisplay): string =>
  formatQuota(quota, display, 2);
export const formatLogQuota = (quota: number, display: QuotaDisplay): string =>
  formatQuota(quota, display, 6);
