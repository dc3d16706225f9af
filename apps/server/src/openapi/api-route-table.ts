import { accountApiRoutes } from './account-api-routes';
import type { ApiRouteContract } from './api-route-contract';
import { logApiRoutes } from './log-api-routes';
import { managementApiRoutes } from './management-api-routes';

export type { ApiAccess, ApiMethod, ApiRouteContract } from './api-route-contract';
export { relayRouteTable, type RelayRouteDescription } from './relay-route-table';

/**
 * Every `/api` route; the entries live in account-api-routes.ts, management-api-routes.ts and
 * log-api-routes.ts. A route registered without an entry fails `openapi.test.ts`, and so does an entry
 * without a registered route; keep the schemas the same ones the handler parses with.
 */
export const apiRouteTable: readonly ApiRouteContract[] = [
  ...accountApiRoutes,
  ...managementApiRoutes,
  ...logApiRoutes,
];
