import type { Tracer } from '@opentelemetry/api';
import type * as OtlpExporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceSdk from '@opentelemetry/sdk-trace-node';
import type * as SemanticConventions from '@opentelemetry/semantic-conventions';
import type { TraceConfig } from '../config/config';
import { lazyPackage } from '../lazy-package';

// The SDK is loaded only when a traces endpoint is configured.
const otlpExporter = lazyPackage<typeof OtlpExporter>('@opentelemetry/exporter-trace-otlp-http');
const resources = lazyPackage<typeof Resources>('@opentelemetry/resources');
const traceSdk = lazyPackage<typeof TraceSdk>('@opentelemetry/sdk-trace-node');
const semanticConventions = lazyPackage<typeof SemanticConventions>('@opentelemetry/semantic-conventions');

/** The tracer of a running trace pipeline, and how to send what is still buffered. */
export interface Tracing {
  tracer: Tracer;
  /** exports every span ended so far */
  flush(): Promise<void>;
  /** flushes, then stops the exporter */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK when a traces endpoint is configured: spans are batched and posted as OTLP/HTTP
 * JSON. Nothing is registered globally: the relay passes its parent spans explicitly, so no async context
 * tracking runs for the rest of the server. The exporter itself reads OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and
 * _COMPRESSION; the provider reads OTEL_TRACES_SAMPLER and OTEL_BSP_*. Null when tracing is off.
 */
export function startTracing(config: TraceConfig): Tracing | null {
  if (config.tracesUrl === '') return null;
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = resources();
  const { BatchSpanProcessor, NodeTracerProvider } = traceSdk();
  const { OTLPTraceExporter } = otlpExporter();
  const { ATTR_SERVICE_NAME } = semanticConventions();
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl }))],
  });
  return {
    tracer: provider.getTracer('gatehouse'),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
