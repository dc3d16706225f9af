import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { describeFinishedRequest, requestLineLevel } from './request-log';

type Request = Parameters<typeof describeFinishedRequest>[0];

function finished(request: Partial<Request>, reply = { statusCode: 200, elapsedTime: 12.345 }) {
  const full = { method: 'POST', url: '/', ip: '10.0.0.7', body: undefined, ...request } as Request;
  return describeFinishedRequest(full, reply);
}

const caller = {
  tokenName: 'billing app',
  key: 'the-secret-key',
} as unknown as FastifyRequest['relayCaller'];

describe('requestLineLevel', () => {
  it.each([
    ['/v1/chat/completions', 'info'],
    ['/v1/models', 'info'],
    ['/v1beta/models/gemini-pro:generateContent', 'info'],
    ['/dashboard/billing/usage', 'info'],
    ['/api/status', 'info'],
    ['/api', 'info'],
    ['/', 'debug'],
    ['/assets/index-abc123.js', 'debug'],
    ['/token', 'debug'],
    ['/logo.png', 'debug'],
    ['/apikeys', 'debug'],
  ])('%s at %s', (url, level) => {
    expect(requestLineLevel(url)).toBe(level);
  });
});

describe('describeFinishedRequest', () => {
  it("gives a relay request's model and key name, never the key", () => {
    const fields = finished({
      url: '/v1/chat/completions',
      body: { value: { model: 'gpt-4o-mini' }, raw: Buffer.from('{}') },
      relayCaller: caller,
    });
    expect(fields).toEqual({
      method: 'POST',
      path: '/v1/chat/completions',
      status: 200,
      durationMs: 12.3,
      ip: '10.0.0.7',
      model: 'gpt-4o-mini',
      keyName: 'billing app',
      user: undefined,
    });
    expect(JSON.stringify(fields)).not.toContain('the-secret-key');
  });

  it('leaves out the query string, which can carry codes and tokens', () => {
    expect(finished({ url: '/api/oauth/github?code=abc&state=xyz' }).path).toBe('/api/oauth/github');
  });

  it('cuts a very long model name and ignores bodies that have none', () => {
    const long = finished({ url: '/v1/embeddings', body: { value: { model: 'x'.repeat(500) } } });
    expect(long.model).toHaveLength(101);
    expect(finished({ url: '/v1/audio/transcriptions', body: { raw: Buffer.from('--form') } }).model).toBe(
      undefined,
    );
    expect(finished({ url: '/v1/models', body: undefined }).model).toBeUndefined();
  });

  it('reads no model from management API bodies, and names the signed-in user', () => {
    const fields = finished({
      url: '/api/channel/',
      body: { value: { model: 'not-a-relay-field' } },
      currentUser: { username: 'root' } as Request['currentUser'],
    });
    expect(fields.model).toBeUndefined();
    expect(fields.keyName).toBeUndefined();
    expect(fields.user).toBe('root');
  });
});
