import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createUserSession } from './test-app';

let kit: RelayKit;
const upstreams: OpenAIUpstream[] = [];
const TOKEN = 'scrape-token-0123456789abcdef';

beforeAll(async () => {
  kit = await startRelayKit();
});
afterAll(async () => {
  await kit.close();
  await Promise.all(upstreams.map((upstream) => upstream.close()));
});

/** One sample of a Prometheus text exposition: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]] = label[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

function scrape(authorization?: string) {
  return kit.test.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization ? { authorization } : {},
  });
}

async function serveModel(model: string, behaviour: Parameters<typeof startOpenAIUpstream>[1] = {}) {
  const ratios = JSON.parse(kit.test.context.options.get('ModelRatio')) as Record<string, number>;
  await kit.test.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
  const upstream = await startOpenAIUpstream(model, behaviour);
  upstreams.push(upstream);
  const channelId = await kit.createChannel({ upstream, models: model, name: `${model} channel` });
  return { upstream, channelId: String(channelId) };
}

describe('GET /metrics', () => {
  it('is not served while no metrics token is set', async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('gatehouse_');
  });

  it('takes its token from root as a secret option that is never read back', async () => {
    const root = await createUserSession(kit.test, { role: Role.root });
    const tooShort = await kit.test.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: root.headers,
      payload: { key: 'MetricsToken', value: 'short' },
    });
    expect(tooShort.json()).toMatchObject({ success: false });
    const saved = await kit.test.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: root.headers,
      payload: { key: 'MetricsToken', value: TOKEN },
    });
    expect(saved.json()).toMatchObject({ success: true });
    const listed = await kit.test.app.inject({ method: 'GET', url: '/api/option/', headers: root.headers });
    expect(listed.body).not.toContain(TOKEN);
    expect(listed.json().data.map((entry: { key: string }) => entry.key)).not.toContain('MetricsToken');
  });

  it('refuses a scrape without the token or with a wrong one', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer wrong-token-0123456789abcdef')).statusCode).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).statusCode).toBe(401);
    const response = await scrape(`Bearer ${TOKEN}x`);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toContain('Bearer');
  });

  it('counts relayed requests, tokens, quota, latency, first tokens and upstream errors', async () => {
    const { channelId } = await serveModel('metrics-model', {
      usage: { prompt: 12, completion: 5, cached: 4 },
    });
    const broken = await serveModel('metrics-broken-model', {
      error: { status: 500, message: 'upstream exploded', type: 'server_error' },
    });
    // One failure opens a circuit: the gauge shows it.
    await kit.test.context.options.set('CircuitBreakerThreshold', '1');
    const user = await kit.createUser();
    const { key } = await kit.createKey(user.id);
    const client = kit.client(key);
    const ask = { model: 'metrics-model', messages: [{ role: 'user' as const, content: 'hi' }] };

    await client.chat.completions.create(ask);
    const stream = await client.chat.completions.create({
      ...ask,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) expect(chunk).toBeDefined();
    await expect(
      client.chat.completions.create({ ...ask, model: 'metrics-broken-model' }),
    ).rejects.toMatchObject({ status: 500 });
    await expect(
      client.chat.completions.create({ ...ask, model: 'a-model-nobody-serves-with-user-words' }),
    ).rejects.toBeDefined();

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const samples = parseExposition(response.body);
    const served = { model: 'metrics-model', channel: channelId };

    expect(
      valueOf(samples, 'gatehouse_relay_requests_total', {
        ...served,
        protocol: 'openai-chat',
        status: '200',
      }),
    ).toBe(2);
    expect(valueOf(samples, 'gatehouse_relay_tokens_total', { ...served, type: 'prompt' })).toBe(24);
    expect(valueOf(samples, 'gatehouse_relay_tokens_total', { ...served, type: 'completion' })).toBe(10);
    expect(valueOf(samples, 'gatehouse_relay_tokens_total', { ...served, type: 'cache_read' })).toBe(8);
    await kit.settle();
    const logs = await kit.test.context.db
      .selectFrom('logs')
      .select('quota')
      .where('type', '=', LogType.consume)
      .where('user_id', '=', user.id)
      .execute();
    expect(logs).toHaveLength(2);
    const charged = logs.reduce((sum, log) => sum + log.quota, 0);
    expect(charged).toBeGreaterThan(0);
    expect(valueOf(samples, 'gatehouse_relay_quota_total', served)).toBe(charged);
    expect(
      valueOf(samples, 'gatehouse_relay_request_duration_seconds_count', { model: 'metrics-model' }),
    ).toBe(2);
    expect(
      valueOf(samples, 'gatehouse_relay_time_to_first_token_seconds_count', { model: 'metrics-model' }),
    ).toBe(1);
    expect(valueOf(samples, 'gatehouse_upstream_attempts_total', { ...served, result: 'success' })).toBe(2);

    const failed = { model: 'metrics-broken-model', channel: broken.channelId };
    expect(valueOf(samples, 'gatehouse_relay_requests_total', { ...failed, status: '500' })).toBe(1);
    expect(valueOf(samples, 'gatehouse_upstream_errors_total', { ...failed, kind: 'server' })).toBe(1);
    expect(valueOf(samples, 'gatehouse_upstream_attempts_total', { ...failed, result: 'error' })).toBe(1);
    expect(valueOf(samples, 'gatehouse_relay_tokens_total', { model: 'metrics-broken-model' })).toBe(0);
    expect(valueOf(samples, 'gatehouse_circuit_state', failed)).toBe(2);
    expect(valueOf(samples, 'gatehouse_circuit_state', served)).toBe(0);

    // A model no channel serves is the client's own words: never a label.
    expect(response.body).not.toContain('a-model-nobody-serves-with-user-words');
    expect(valueOf(samples, 'gatehouse_relay_requests_total', { model: '(unrouted)' })).toBe(1);
    // Never labelled by user or key.
    expect(response.body).not.toContain(key.slice(3));
    expect(samples.some((sample) => 'user' in sample.labels || 'key' in sample.labels)).toBe(false);

    // The process and the event loop, from prom-client's default metrics in our registry.
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((sample) => sample.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(samples.some((sample) => sample.name === 'process_cpu_seconds_total')).toBe(true);
  });

  it('stops being served when the token is cleared', async () => {
    await kit.test.context.options.set('MetricsToken', '');
    expect((await scrape(`Bearer ${TOKEN}`)).statusCode).toBe(404);
  });
});
