import { isIP } from 'node:net';
import type { SourceRow } from './one-api-source';

/** Reading the source's loosely typed values. */

export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
export const num = (value: unknown): number => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};
export const flag = (value: unknown): number =>
  value === true || Number(value) === 1 || value === 't' ? 1 : 0;
export const isDeleted = (row: SourceRow): boolean => row.deleted_at !== undefined && row.deleted_at !== null;

/** new-api's allowed IPs (one a line, single addresses) as our comma list of CIDRs. */
export function allowIpsToSubnets(allowIps: string): string {
  return allowIps
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => (entry.includes('/') ? entry : `${entry}/${isIP(entry) === 6 ? 128 : 32}`))
    .join(',');
}
