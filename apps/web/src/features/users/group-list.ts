import { DEFAULT_GROUP } from '@gatehouse/shared';

/** The names of a comma-separated group list; empty means 'default'. */
export function splitGroupList(groups: string): string[] {
  const names = groups
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? names : [DEFAULT_GROUP];
}
