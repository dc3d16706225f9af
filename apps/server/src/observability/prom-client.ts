import type * as PromClient from 'prom-client';
import { lazyPackage } from '../lazy-package';

/** prom-client, loaded once a MetricsToken turns the metrics on. */
export const promClient = lazyPackage<typeof PromClient>('prom-client');
