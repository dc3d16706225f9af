import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startOtlpStandIn, type OtlpStandIn, type ReceivedSpan } from './support/otlp-stand-in';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { getTelemetry } from '../src/observability/telemetry';
import { ConfigError, loadConfig } from '../src/config/config';
import { createTestApp } from './test-app';

let collector: OtlpStandIn;
const upstreams: OpenAIUpstream[] = [];

beforeAll(async () => {
  collector = await startOtlpStandIn();
});
afterAll(async () => {
  await collector.close();
  await Promise.all(upstreams.map((upstream) => upstream.close()));
});

const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';

async function serveModel(kit: RelayKit, model: string, routes: Array<{ fails: boolean; priority: number }>) {
  const ratios = JSON.parse(kit.test.context.options.get('ModelRatio')) as Record<string, number>;
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
  const channelIds: number[] = [];
  for (const [index, route] of routes.entries()) {
    const upstream = await startOpenAIUpstream(
      `${model}-${index}`,
      route.fails ? { error: { status: 503, message: 'overloaded', type: 'server_error' } } : {},
    );
    upstreams.push(upstream);
    channelIds.push(
      await kit.createChannel({
        upstream,
        models: model,
        priority: route.priority,
        name: `${model} ${index}`,
      }),
    );
  }
  return channelIds;
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);

describe('OpenTelemetry traces', () => {
  it('exports one trace per relay request, child spans included, under the client traceparent', async () => {
    const kit = await startRelayKit({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'gatehouse-under-test',
    });
    const [channelId] = await serveModel(kit, 'traced-model', [{ fails: false, priority: 0 }]);
    const [failingId, answeringId] = await serveModel(kit, 'retried-model', [
      { fails: true, priority: 10 },
      { fails: false, priority: 0 },
    ]);
    await kit.test.context.options.set('RetryTimes', '1');
    const user = await kit.createUser();
    const { key, id: keyId } = await kit.createKey(user.id);
    const client = kit.client(key);
    const messages = [{ role: 'user' as const, content: 'hi' }];

    await client.chat.completions.create(
      { model: 'traced-model', messages },
      { headers: { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01` } },
    );
    const stream = await client.chat.completions.create({
      model: 'retried-model',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) expect(chunk).toBeDefined();
    // Closing the server flushes the spans still batched.
    await kit.close();

    const spans = collector.spans();
    const roots = spans.filter((span) => span.name === 'POST /v1/chat/completions');
    expect(roots).toHaveLength(2);
    expect(new Set(roots.map((root) => root.traceId)).size).toBe(2);
    expect(spans.every((span) => span.serviceName === 'gatehouse-under-test')).toBe(true);

    const traced = roots.find((root) => root.traceId === CLIENT_TRACE_ID);
    expect(traced).toBeDefined();
    if (!traced) return;
    expect(traced.parentSpanId).toBe(CLIENT_SPAN_ID);
    expect(traced.attributes).toMatchObject({
      'gen_ai.request.model': 'traced-model',
      'gatehouse.inbound_protocol': 'openai-chat',
      'gatehouse.key_id': keyId,
      'gatehouse.user_id': user.id,
      'http.response.status_code': 200,
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'gatehouse.channel_id': channelId,
    });
    expect(Number(traced.attributes['gatehouse.quota'])).toBeGreaterThan(0);
    const children = childrenOf(spans, traced);
    expect(children.map((span) => span.name).sort()).toEqual([
      'relay.auth',
      'relay.channel_pick',
      'relay.settlement',
      'relay.upstream_attempt',
    ]);
    const attempt = children.find((span) => span.name === 'relay.upstream_attempt');
    expect(attempt?.attributes).toMatchObject({ 'gatehouse.channel_id': channelId, 'gatehouse.attempt': 1 });

    // No traceparent: a trace of its own, with one span per upstream attempt.
    const retried = roots.find((root) => root.traceId !== CLIENT_TRACE_ID);
    expect(retried?.parentSpanId).toBe('');
    if (!retried) return;
    expect(retried.attributes).toMatchObject({ 'gatehouse.stream': true, 'gatehouse.attempts': 2 });
    expect(Number(retried.attributes['gatehouse.time_to_first_byte_ms'])).toBeGreaterThan(0);
    const attempts = childrenOf(spans, retried).filter((span) => span.name === 'relay.upstream_attempt');
    expect(attempts.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'gatehouse.channel_id': failingId,
        'error.type': 'server',
        'http.response.status_code': 503,
      }),
      expect.objectContaining({ 'gatehouse.channel_id': answeringId, 'gatehouse.attempt': 2 }),
    ]);
    expect(attempts[0].statusCode).toBe(2);
    expect(attempts[1].attributes['error.type']).toBeUndefined();
  });

  it('starts no tracing at all without an endpoint', async () => {
    const test = await createTestApp();
    try {
      expect(getTelemetry(test.context).tracing).toBeNull();
    } finally {
      await test.close();
    }
  });

  it('reads the standard OTEL variables, and refuses an endpoint that is not a URL', () => {
    expect(loadConfig({}).traces).toEqual({ tracesUrl: '', serviceName: 'gatehouse' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).traces.tracesUrl).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest',
      }).traces.tracesUrl,
    ).toBe('https://traces.example/ingest');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).traces
        .tracesUrl,
    ).toBe('');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});
