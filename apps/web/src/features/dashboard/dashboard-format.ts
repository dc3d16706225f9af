import dayjs from 'dayjs';
import { formatCompactNumber, type DashboardGranularity, type QuotaDisplay } from '@gatehouse/shared';

/** A bucket's label on the time axis: the hour (with the day when the range spans several), or the day. */
export function formatBucket(seconds: number, granularity: DashboardGranularity, spansDays: boolean): string {
  const time = dayjs.unix(seconds);
  if (granularity === 'day') return time.format('MM-DD');
  return spansDays ? time.format('MM-DD HH:00') : time.format('HH:00');
}

/** Quota as the chart plots it: dollars when the console shows currency, else quota units. */
export function quotaToChartValue(quota: number, display: QuotaDisplay): number {
  return display.displayInCurrency ? quota / display.quotaPerUnit : quota;
}

/** The chart's value as text: "$1.23" or "12.3k". */
export function formatChartQuota(value: number, display: QuotaDisplay): string {
  if (!display.displayInCurrency) return formatCompactNumber(value);
  return `$${value >= 100 ? value.toFixed(0) : value.toFixed(value >= 1 ? 2 : 4)}`;
}

export function formatMilliseconds(value: number | null): string {
  if (value === null) return '–';
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%`;
}
