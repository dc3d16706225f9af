import type * as OpenTelemetryApi from '@opentelemetry/api';
import { lazyPackage } from '../lazy-package';

/**
 * The OpenTelemetry API (contexts, span kinds and statuses), loaded with the first traced request: only a
 * server that exports traces makes spans, and the API is ~45 modules the others never run.
 */
export const openTelemetryApi = lazyPackage<typeof OpenTelemetryApi>('@opentelemetry/api');
