import { describe, expect, it } from 'vitest';
import { ChannelBreaker, parseRetryAfter, type BreakerSettings } from './channel-breaker';

function breakerAt(settings: Partial<BreakerSettings> = {}) {
  const clock = { now: 1_000_000 };
  const breaker = new ChannelBreaker(
    () => ({ failureThreshold: 3, coolDownMs: 10_000, maxCoolDownMs: 25_000, ...settings }),
    () => clock.now,
  );
  return { breaker, clock };
}

const fail = (breaker: ChannelBreaker, times = 1, model = 'm') => {
  for (let index = 0; index < times; index += 1) {
    expect(breaker.claim(1, model)).toBe(true);
    breaker.recordOutcome(1, model, 'failed', { reason: 'HTTP 500' });
  }
};

describe('the circuit breaker', () => {
  it('opens after the threshold of consecutive failures, for that model only', () => {
    const { breaker, clock } = breakerAt();
    fail(breaker, 2);
    expect(breaker.blockedUntil(1, 'm')).toBe(0);
    fail(breaker, 1);
    expect(breaker.blockedUntil(1, 'm')).toBe(clock.now + 10_000);
    expect(breaker.claim(1, 'm')).toBe(false);
    expect(breaker.claim(1, 'other')).toBe(true);
    expect(breaker.summarize(1)).toMatchObject({ state: 'open', model: 'm', reason: 'HTTP 500' });
  });

  it('a success in between starts the count again', () => {
    const { breaker } = breakerAt();
    fail(breaker, 2);
    breaker.recordOutcome(1, 'm', 'answered', { latencyMs: 40 });
    fail(breaker, 2);
    expect(breaker.blockedUntil(1, 'm')).toBe(0);
  });

  it('lets exactly one probe through after the cool-down; its success closes the circuit', () => {
    const { breaker, clock } = breakerAt();
    fail(breaker, 3);
    clock.now += 10_000;
    expect(breaker.isAllClear()).toBe(false);
    expect(breaker.claim(1, 'm')).toBe(true);
    expect(breaker.summarize(1).state).toBe('half_open');
    expect(breaker.claim(1, 'm')).toBe(false);
    breaker.recordOutcome(1, 'm', 'answered', { latencyMs: 40 });
    expect(breaker.summarize(1).state).toBe('closed');
    expect(breaker.isAllClear()).toBe(true);
    expect(breaker.claim(1, 'm')).toBe(true);
    expect(breaker.claim(1, 'm')).toBe(true);
  });

  it('reopens on a failed probe with a doubled cool-down, capped', () => {
    const { breaker, clock } = breakerAt();
    fail(breaker, 3);
    clock.now += 10_000;
    fail(breaker, 1);
    expect(breaker.blockedUntil(1, 'm')).toBe(clock.now + 20_000);
    clock.now += 20_000;
    fail(breaker, 1);
    expect(breaker.blockedUntil(1, 'm')).toBe(clock.now + 25_000);
  });

  it('failures of attempts sent before the circuit opened neither lengthen the cool-down nor count as probes', () => {
    const { breaker, clock } = breakerAt();
    // Six requests in flight at once against a failing channel: the third failure opens the circuit.
    for (let index = 0; index < 6; index += 1) expect(breaker.claim(1, 'm')).toBe(true);
    for (let index = 0; index < 6; index += 1)
      breaker.recordOutcome(1, 'm', 'failed', { reason: 'HTTP 500' });
    expect(breaker.blockedUntil(1, 'm')).toBe(clock.now + 10_000);
    clock.now += 10_000;
    expect(breaker.claim(1, 'm')).toBe(true);
    breaker.recordOutcome(1, 'm', 'answered', { latencyMs: 5 });
    expect(breaker.summarize(1).state).toBe('closed');
  });

  it('a probe that ended without an outcome frees the probe for the next request', () => {
    const { breaker, clock } = breakerAt();
    fail(breaker, 3);
    clock.now += 10_000;
    expect(breaker.claim(1, 'm')).toBe(true);
    breaker.release(1, 'm');
    expect(breaker.claim(1, 'm')).toBe(true);
  });

  it('rests a channel for the Retry-After of a 429, capped, without needing a probe', () => {
    const { breaker, clock } = breakerAt();
    breaker.recordOutcome(1, 'm', 'rateLimited', { retryAfterMs: 7000, reason: 'slow down' });
    expect(breaker.summarize(1)).toMatchObject({
      state: 'resting',
      until: Math.ceil((clock.now + 7000) / 1000),
    });
    expect(breaker.claim(1, 'm')).toBe(false);
    clock.now += 7000;
    expect(breaker.claim(1, 'm')).toBe(true);
    breaker.recordOutcome(1, 'm', 'rateLimited', { retryAfterMs: 3_600_000 });
    expect(breaker.blockedUntil(1, 'm')).toBe(clock.now + 25_000);
  });

  it('counts refused credentials as failures and remembers the reason until a success', () => {
    const { breaker } = breakerAt();
    breaker.recordOutcome(1, 'm', 'authFailed', { reason: 'invalid key' });
    expect(breaker.summarize(1)).toMatchObject({ state: 'auth_failed', reason: 'invalid key' });
    expect(breaker.claim(1, 'm')).toBe(true);
    breaker.recordOutcome(1, 'm', 'authFailed', { reason: 'invalid key' });
    breaker.recordOutcome(1, 'm', 'authFailed', { reason: 'invalid key' });
    expect(breaker.claim(1, 'm')).toBe(false);
    expect(breaker.recordOutcome(1, 'other', 'answered', { latencyMs: 5 })).toBe(true);
    expect(breaker.authFailureOf(1)).toBeNull();
  });

  it('never opens with threshold 0, and counts the error rate and mean latency of the window', () => {
    const { breaker, clock } = breakerAt({ failureThreshold: 0 });
    fail(breaker, 10);
    breaker.recordOutcome(1, 'm', 'answered', { latencyMs: 100 });
    breaker.recordOutcome(1, 'm', 'answered', { latencyMs: 300 });
    expect(breaker.blockedUntil(1, 'm')).toBe(0);
    expect(breaker.summarize(1)).toMatchObject({ requests: 12, error_rate: 0.833, latency_ms: 200 });
    clock.now += 6 * 60_000;
    expect(breaker.summarize(1)).toMatchObject({ requests: 0, error_rate: 0, latency_ms: 0 });
  });

  it('lists every circuit for a gauge', () => {
    const { breaker } = breakerAt();
    fail(breaker, 3, 'a');
    fail(breaker, 1, 'b');
    expect(breaker.snapshot()).toEqual([
      expect.objectContaining({ channelId: 1, model: 'a', state: 'open' }),
      expect.objectContaining({ channelId: 1, model: 'b', state: 'closed', consecutiveFailures: 1 }),
    ]);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds, an HTTP date and retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after': '12' }, now)).toBe(12_000);
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30_000);
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '1' }, now)).toBe(250);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeNull();
    expect(parseRetryAfter({}, now)).toBeNull();
  });
});
