import type { Migration } from 'kysely';
import * as initial from './0001-initial';
import * as storedResponses from './0002-stored-responses';
import * as itemisedLogBilling from './0003-itemised-log-billing';
import * as quotaReservations from './0004-quota-reservations';
import * as keyUserLimits from './0005-key-user-limits';
import * as sessions from './0006-sessions';
import * as channelAuthFailure from './0007-channel-auth-failure';
import * as twoFactor from './0008-two-factor';
import * as auditLog from './0009-audit-log';
import * as usageRollups from './0010-usage-rollups';
import * as changeVersions from './0011-change-versions';
import * as logCallPrice from './0012-log-call-price';
import * as logPagingIndexes from './0013-log-paging-indexes';
import * as logMediaTokens from './0014-log-media-tokens';
import * as oidcId from './0015-oidc-id';
import * as rollupMediaTokens from './0016-rollup-media-tokens';
import * as logPartitions from './0017-log-partitions';
import * as quotaReleases from './0018-quota-releases';
import * as reservationsWithoutRowid from './0019-reservations-without-rowid';

/**
 * Every migration, in order. Names are the version; never rename or edit one that has shipped —
 * add the next file and list it here.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-stored-responses': storedResponses,
  '0003-itemised-log-billing': itemisedLogBilling,
  '0004-quota-reservations': quotaReservations,
  '0005-key-user-limits': keyUserLimits,
  '0006-sessions': sessions,
  '0007-channel-auth-failure': channelAuthFailure,
  '0008-two-factor': twoFactor,
  '0009-audit-log': auditLog,
  '0010-usage-rollups': usageRollups,
  '0011-change-versions': changeVersions,
  '0012-log-call-price': logCallPrice,
  '0013-log-paging-indexes': logPagingIndexes,
  '0014-log-media-tokens': logMediaTokens,
  '0015-oidc-id': oidcId,
  '0016-rollup-media-tokens': rollupMediaTokens,
  '0017-log-partitions': logPartitions,
  '0018-quota-releases': quotaReleases,
  '0019-reservations-without-rowid': reservationsWithoutRowid,
};
