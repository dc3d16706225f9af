import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLoggerOptions, formatRequestLine } from './logger-options';
import { REQUEST_LINE_MESSAGE } from './request-log';

describe('chooseLogFormat', () => {
  it('prints for people on a terminal and JSON elsewhere, unless told', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});

describe('formatRequestLine', () => {
  it('reads as one sentence, with only the details the request has', () => {
    const relay = { method: 'POST', path: '/v1/chat/completions', status: 200, durationMs: 35.2 };
    expect(formatRequestLine({ ...relay, model: 'gpt-4o-mini', keyName: 'my app' })).toBe(
      'POST /v1/chat/completions 200 in 35.2 ms (model gpt-4o-mini, key "my app")',
    );
    expect(formatRequestLine({ method: 'GET', path: '/api/status', status: 200, durationMs: 1 })).toBe(
      'GET /api/status 200 in 1 ms',
    );
  });
});

describe('createLoggerOptions', () => {
  it('leaves JSON to pino as it is', async () => {
    expect(await createLoggerOptions('warn', 'json')).toEqual({ level: 'warn' });
  });

  it('writes request lines for people, without the fields repeated as JSON', async () => {
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const { log } = Fastify({ logger: await createLoggerOptions('info', 'pretty', output) });
    log.info(
      {
        reqId: 'abc',
        method: 'GET',
        path: '/api/user/self',
        status: 200,
        durationMs: 3.1,
        ip: '::1',
        user: 'root',
      },
      REQUEST_LINE_MESSAGE,
    );
    log.warn({ requestId: 'r1' }, 'something to look at');
    await new Promise((resolve) => setImmediate(resolve));
    const [requestLine, warning] = chunks.join('').trimEnd().split('\n');
    expect(requestLine).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/user\/self 200 in 3.1 ms \(user root\)$/,
    );
    expect(warning).toMatch(/WARN: something to look at \{"requestId":"r1"\}$/);
  });
});
