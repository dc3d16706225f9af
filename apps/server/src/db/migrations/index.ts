import type { Migration } from 'kysely';
import * as initial from './0001-initial';

/**
 * Every migration, in order. Names are the version; never rename or edit one that has shipped —
 * add the next file and list it here.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};
