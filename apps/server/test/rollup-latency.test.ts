import { afterEach, describe, expect, it } from 'vitest';
import { LogType, nowSeconds, Role, type DashboardData } from '@gatehouse/shared';
import { latencyQuantile } from '../src/rollups/latency-histogram';
import { addLogsToRollups } from '../src/rollups/usage-rollups';
import { createTestApp, createUserSession, type TestApp } from './test-app';

let test: TestApp | null = null;
afterEach(async () => {
  await test?.close();
  test = null;
});

describe('latency and time-to-first-token percentiles from the rollups', () => {
  it('interpolates inside the fixed buckets and says nothing when nothing was counted', () => {
    // 100 requests of ≤ 100 ms and 100 of 250–500 ms.
    const counts = [100, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(latencyQuantile(counts, 0.5)).toBe(100);
    expect(latencyQuantile(counts, 0.95)).toBe(475);
    expect(latencyQuantile([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 0.95)).toBe(80_000);
    expect(latencyQuantile(new Array(11).fill(0), 0.5)).toBeNull();
  });

  it('answers p50/p95 of latency and of the first token per channel, from batches summed together', async () => {
    test = await createTestApp();
    const admin = await createUserSession(test, { role: Role.admin });
    const now = nowSeconds();
    const row = (elapsed: number, firstToken: number, type: number = LogType.consume) => ({
      type,
      created_at: now,
      user_id: admin.user.id,
      token_name: 'k',
      model_name: 'm',
      channel_id: 7,
      quota: 1,
      elapsed_time: elapsed,
      first_token_ms: firstToken,
    });
    // Two batches, as two settlements would write them: the histograms add up.
    await addLogsToRollups(test.context.db, [row(800, 300), row(900, 400), row(30, 0)]);
    await addLogsToRollups(test.context.db, [row(7000, 3000), row(50, 0, LogType.error)]);

    const response = await test.app.inject({
      method: 'GET',
      url: '/api/dashboard?scope=all',
      headers: admin.headers,
    });
    const data = (response.json() as { data: DashboardData }).data;
    const channel = data.channels?.find((entry) => entry.channel_id === 7);
    expect(channel).toMatchObject({ requests: 5, errors: 1, error_rate: 0.2, latency_avg_ms: 2183 });
    // Latencies 30, 800, 900, 7000 ms (the failed request is not timed).
    expect(channel?.latency_p50_ms).toBeGreaterThan(500);
    expect(channel?.latency_p50_ms).toBeLessThanOrEqual(1000);
    expect(channel?.latency_p95_ms).toBeGreaterThan(5000);
    expect(channel?.latency_p95_ms).toBeLessThanOrEqual(10_000);
    // First tokens 300, 400, 3000 ms; requests without one are not counted.
    expect(channel?.first_token_p50_ms).toBeGreaterThan(250);
    expect(channel?.first_token_p50_ms).toBeLessThanOrEqual(500);
    expect(channel?.first_token_p95_ms).toBeGreaterThan(2500);
    expect(data.totals.first_token_p95_ms).toBe(channel?.first_token_p95_ms);
  });
});
