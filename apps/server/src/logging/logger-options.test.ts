import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  it('writes JSON lines in blocks to a file, all of them by the time the process exits', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-log-'));
    const file = path.join(dir, 'server.log');
    const script = `
      import Fastify from 'fastify';
      import { createLoggerOptions } from ${JSON.stringify(path.resolve(__dirname, 'logger-options.ts'))};
      import { openSync, readFileSync } from 'node:fs';
      const fd = openSync(${JSON.stringify(file)}, 'a');
      const { log } = Fastify({ logger: await createLoggerOptions('info', 'json', fd) });
      // No await from here on: the periodic flush cannot run before the file is read.
      for (let index = 0; index < 3; index += 1) log.info({ index }, 'line');
      const early = readFileSync(${JSON.stringify(file)}, 'utf8');
      process.stderr.write('before exit: ' + early.length + '\\n');
      process.exit(0);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: __dirname,
    });
    expect(run.status, run.stderr).toBe(0);
    // Three short lines wait in the buffer (no write per line) …
    expect(run.stderr).toContain('before exit: 0');
    // … and are all written when the process exits.
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.msg, line.index])).toEqual([
      ['line', 0],
      ['line', 1],
      ['line', 2],
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes what waits within a fraction of a second, and nothing while nothing waits', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-log-'));
    const file = path.join(dir, 'server.log');
    const script = `
      import fs from 'node:fs';
      import Fastify from 'fastify';
      import { createLoggerOptions } from ${JSON.stringify(path.resolve(__dirname, 'logger-options.ts'))};
      const writes = [];
      const writeSync = fs.writeSync;
      fs.writeSync = (fd, data, ...rest) => {
        writes.push(typeof data === 'string' ? Buffer.byteLength(data) : data.length);
        return writeSync(fd, data, ...rest);
      };
      const fd = fs.openSync(${JSON.stringify(file)}, 'a');
      const { log } = Fastify({ logger: await createLoggerOptions('info', 'json', fd) });
      log.info('one line');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const written = fs.readFileSync(${JSON.stringify(file)}, 'utf8');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      process.stderr.write(JSON.stringify({ written, writes }) + '\\n');
      process.exit(0);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: __dirname,
    });
    expect(run.status, run.stderr).toBe(0);
    const { written, writes } = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as {
      written: string;
      writes: number[];
    };
    expect(JSON.parse(written).msg).toBe('one line');
    // One write for the line; none, empty or not, in the idle second after it.
    expect(writes).toEqual([Buffer.byteLength(written)]);
    rmSync(dir, { recursive: true, force: true });
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
