import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../../test/support/scripted-upstream';
import { Agent } from '../http/undici-client';
import { ClientAbort } from './client-abort';
import type { RelayRuntime } from './relay-runtime';
import { sendUpstreamForWhole, UpstreamAnswerTooLong } from './whole-upstream-call';

let upstream: ScriptedUpstream;
let origin: string;
/** what the stand-in upstream does with the next request */
let answer: (response: ServerResponse) => void = () => undefined;
let closedEarly = 0;
const dispatcher = new Agent({ keepAliveTimeout: 1000 });
const runtime = { context: { config: { relayTimeoutSeconds: 5 } }, dispatcher } as unknown as RelayRuntime;

beforeAll(async () => {
  upstream = await startScriptedUpstream(
    (response) => answer(response),
    () => (closedEarly += 1),
  );
  origin = upstream.origin;
});

afterAll(async () => {
  await dispatcher.close();
  await upstream.close();
});

const send = (signal = new ClientAbort(), onAnswered: () => void = () => undefined) =>
  sendUpstreamForWhole(
    runtime,
    { url: `${origin}/v1/chat/completions`, headers: { 'content-type': 'application/json' }, body: '{}' },
    signal,
    onAnswered,
  );

describe('sendUpstreamForWhole', () => {
  it('refuses an answer longer than it holds and cancels the upstream, which may send on for ever', async () => {
    let writes = 0;
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        if (response.destroyed) return;
        writes += 1;
        response.write('x'.repeat(1000));
        setTimeout(more, 1);
      };
      more();
    };
    const before = closedEarly;
    const sent = sendUpstreamForWhole(
      runtime,
      { url: `${origin}/v1/chat/completions`, headers: { 'content-type': 'application/json' }, body: '{}' },
      new ClientAbort(),
      () => undefined,
      2500,
    );
    await expect(sent).rejects.toThrow(UpstreamAnswerTooLong);
    await expect(sent).rejects.toThrow('longer than 2500 bytes');
    await vi.waitFor(() => expect(closedEarly).toBe(before + 1));
    expect(writes).toBeLessThan(50);
  });

  it('answers the status, the headers and the whole body, however many writes it came in', async () => {
    answer = (response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      response.write('{"a":');
      setTimeout(() => response.end('1}'), 5);
    };
    let answeredAt = 0;
    const whole = await send(new ClientAbort(), () => (answeredAt = Date.now()));
    expect(whole.statusCode).toBe(201);
    expect(whole.headers['x-upstream']).toBe('yes');
    expect(whole.body.toString()).toBe('{"a":1}');
    expect(answeredAt).toBeGreaterThan(0);
  });

  it('answers an error status as an answer, with its body', async () => {
    answer = (response) => {
      response.writeHead(429, { 'retry-after': '1' });
      response.end('{"error":{"message":"slow down"}}');
    };
    const whole = await send();
    expect(whole.statusCode).toBe(429);
    expect(whole.headers['retry-after']).toBe('1');
    expect(whole.body.toString()).toContain('slow down');
  });

  it('rejects when the body stops before its end', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"partial":');
      setTimeout(() => response.destroy(), 5);
    };
    await expect(send()).rejects.toThrow();
  });

  it('cancels the upstream call when the client leaves while it waits, and rejects at once', async () => {
    answer = () => undefined;
    const before = closedEarly;
    const signal = new ClientAbort();
    const sent = send(signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    signal.abort();
    await expect(sent).rejects.toThrow('cancelled');
    await expect.poll(() => closedEarly).toBe(before + 1);
  });
});
