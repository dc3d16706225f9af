import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDashScopeError } from './read-dashscope-error';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('DashScope’s errors as the kinds the relay acts on', () => {
  it.each([
    ['error-invalid-api-key.json', 401, 'authentication'],
    ['error-throttling-rate-quota.json', 429, 'rate_limit'],
    ['error-arrearage.json', 400, 'insufficient_quota'],
    ['error-data-inspection-failed.json', 400, 'invalid_request'],
    ['error-input-too-long.json', 400, 'context_length'],
    ['error-model-not-exist.json', 400, 'not_found'],
    ['error-access-denied-unpurchased.json', 403, 'permission'],
  ])('%s (HTTP %i) reads as %s', (name, status, kind) => {
    const details = readDashScopeError(fixture(name), status);
    expect(details.kind).toBe(kind);
    expect(details.type).toBe('dashscope_error');
    expect(details.message).not.toBe('');
  });

  it('reads a proxy’s page by its status', () => {
    expect(readDashScopeError(Buffer.from('<html>502</html>'), 502).kind).toBe('server');
  });
});
