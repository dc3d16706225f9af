import {
  auditQuerySchema,
  dashboardQuerySchema,
  logClearQuerySchema,
  logQuerySchema,
} from '@gatehouse/shared';
import type { ApiRouteContract } from './api-route-contract';

/** Consumption logs, pricing, the dashboard and the audit log. */
export const logApiRoutes: readonly ApiRouteContract[] = [
  // consumption logs
  {
    method: 'GET',
    path: '/api/log',
    tag: 'logs',
    access: 'admin',
    summary: 'Every consumption log, filtered; paged by cursor (next_cursor) or by p and size',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/self',
    tag: 'logs',
    access: 'user',
    summary: 'Own consumption logs, filtered; paged by cursor (next_cursor) or by p and size',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/pricing',
    tag: 'logs',
    access: 'user',
    summary: 'The models the user can call, with their ratios and prices per million tokens or per call',
  },
  {
    method: 'GET',
    path: '/api/pricing/built-in',
    tag: 'options',
    access: 'admin',
    summary:
      'The built-in price table beside the price options: built-in and effective prices, and overrides',
  },
  {
    method: 'GET',
    path: '/api/user/dashboard',
    tag: 'logs',
    access: 'user',
    summary: 'Own requests, tokens and quota per day and model over the last 7 days',
  },
  {
    method: 'GET',
    path: '/api/dashboard',
    tag: 'logs',
    access: 'user',
    summary:
      'Usage over time from the hourly or daily rollups: series, totals, top models and keys; channels with error rate and latency percentiles for admins; scope=all (everyone) for admins',
    query: dashboardQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/export',
    tag: 'logs',
    access: 'admin',
    summary: 'Every log the filters match as CSV, newest first, streamed in batches (any size)',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/self/export',
    tag: 'logs',
    access: 'user',
    summary: 'Own logs the filters match as CSV, newest first, streamed in batches (any size)',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/stat',
    tag: 'logs',
    access: 'admin',
    summary: 'Quota used by the filtered logs',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/self/stat',
    tag: 'logs',
    access: 'user',
    summary: 'Quota used by own filtered logs',
    query: logQuerySchema,
  },
  {
    method: 'DELETE',
    path: '/api/log',
    tag: 'logs',
    access: 'admin',
    summary: 'Delete logs older than a time',
    query: logClearQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/audit',
    tag: 'logs',
    access: 'admin',
    summary: 'The audit log: who changed what (secrets masked), newest first; option entries for root only',
    query: auditQuerySchema,
  },
];
