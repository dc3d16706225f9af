import { startStandInServer, type StandInServer } from './stand-in-server';

/** A span as an OTLP/HTTP JSON export carries it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** 2 = error */
  statusCode: number;
  /** the resource's service.name */
  serviceName: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
      }>;
    }>;
  }>;
}

function readValue(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

function readAttributes(attributes: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(attributes.map((attribute) => [attribute.key, readValue(attribute.value)]));
}

export interface OtlpStandIn {
  /** the collector's base address, as OTEL_EXPORTER_OTLP_ENDPOINT names it */
  url: string;
  server: StandInServer;
  /** every span received so far, in the order they came */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

/**
 * An OpenTelemetry collector's OTLP/HTTP receiver on 127.0.0.1: takes JSON exports at POST /v1/traces (what
 * @opentelemetry/exporter-trace-otlp-http sends) and answers an empty success.
 */
export async function startOtlpStandIn(): Promise<OtlpStandIn> {
  const server = await startStandInServer((request) =>
    request.method === 'POST' && request.path === '/v1/traces'
      ? { json: {} }
      : { status: 404, json: { message: 'not found' } },
  );
  return {
    url: server.url,
    server,
    spans() {
      const spans: ReceivedSpan[] = [];
      for (const request of server.requests) {
        if (request.path !== '/v1/traces') continue;
        const exported = JSON.parse(request.body) as OtlpExport;
        for (const resourceSpans of exported.resourceSpans ?? []) {
          const serviceName = String(
            readAttributes(resourceSpans.resource?.attributes)['service.name'] ?? '',
          );
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes: readAttributes(span.attributes),
                statusCode: span.status?.code ?? 0,
                serviceName,
              });
            }
          }
        }
      }
      return spans;
    },
    close: () => server.close(),
  };
}
