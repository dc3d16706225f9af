import { DEFAULT_GROUP } from '@gatehouse/shared';
import type { AppContext } from '../context';

/** The group names of a comma list; an empty list means 'default'. */
export function splitGroups(groups: string): string[] {
  const names = groups
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? names : [DEFAULT_GROUP];
}

/**
 * Every group an admin can choose: the ones priced in GroupRatio first (in their order), then the ones users,
 * channels and abilities already use, by name.
 */
export async function listGroups(context: AppContext): Promise<string[]> {
  const { db, options } = context;
  const priced = Object.keys(options.getJson<Record<string, number>>('GroupRatio') ?? {});
  const [users, channels, abilities] = await Promise.all([
    db.selectFrom('users').select('group').distinct().execute(),
    db.selectFrom('channels').select('group').distinct().execute(),
    db.selectFrom('abilities').select('group').distinct().execute(),
  ]);
  const inUse = [...users, ...channels, ...abilities].flatMap((row) => splitGroups(row.group));
  const extra = [...new Set(inUse)].filter((name) => !priced.includes(name)).sort();
  return [...new Set(priced), ...extra];
}
