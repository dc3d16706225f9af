import type { z } from 'zod';

/** Who may call a route: anyone, a signed-in user (session cookie or access token), an admin, or root. */
export type ApiAccess = 'public' | 'user' | 'admin' | 'root';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One management API route as the reference describes it: the same zod schemas from packages/shared that
 * the route's handler parses its query and body with (`parseWith`). Paths use OpenAPI's `{id}` form.
 */
export interface ApiRouteContract {
  method: ApiMethod;
  path: string;
  summary: string;
  tag: string;
  access: ApiAccess;
  query?: z.ZodType;
  body?: z.ZodType;
  /** the body may be either of these (the route picks by a query parameter) */
  bodyOneOf?: z.ZodType[];
  /** GET routes that change something (the cross-site guard refuses them from other sites) */
  changesState?: boolean;
}

/** The path parameter of routes on one record, in OpenAPI's form. */
export const idPath = '{id}';
