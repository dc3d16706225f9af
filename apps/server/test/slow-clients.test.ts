import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createTestApp, type TestApp } from './test-app';

/**
 * Slow clients (a slowloris) on a real socket: a request must arrive whole within REQUEST_BODY_TIMEOUT however
 * it trickles, idle keep-alive connections close after KEEP_ALIVE_TIMEOUT, and neither cuts a long answer.
 */
const TIMEOUTS = { REQUEST_BODY_TIMEOUT: '1', HEADERS_TIMEOUT: '1', KEEP_ALIVE_TIMEOUT: '1' };
/** Node checks the timeouts once a second, so a connection is closed within about a second after them. */
const CLOSED_WITHIN_MS = 3500;

interface Closed {
  afterMs: number;
  received: string;
}

/** Opens a socket, runs `drive` on it, and answers when and with what the server closed it (null: still open). */
function watchSocket(port: number, drive: (socket: Socket) => void, giveUpMs = 6000): Promise<Closed | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const startedAt = Date.now();
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, giveUpMs);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ afterMs: Date.now() - startedAt, received });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('connect', () => drive(socket));
  });
}

/** Writes `text` one byte every `everyMs` while the socket is open. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) {
      clearInterval(timer);
      return;
    }
    socket.write(text[index] ?? '');
    index += 1;
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

const LOGIN_HEADERS =
  'POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';

describe('timeouts for slow clients', () => {
  let test: TestApp;
  let port: number;
  beforeAll(async () => {
    test = await createTestApp(TIMEOUTS);
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await test.close();
  });

  it('closes a connection whose body trickles in a byte every 200 ms, answering 408', async () => {
    const closed = await watchSocket(port, (socket) => {
      socket.write(LOGIN_HEADERS);
      trickle(socket, '{"username":"root","password":"123456"}'.padEnd(100, ' '), 200);
    });
    expect(closed, 'the server kept the trickling connection open').not.toBeNull();
    expect(closed?.received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(closed?.afterMs).toBeGreaterThanOrEqual(900);
    expect(closed?.afterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('closes a connection whose body stalls after a few bytes', async () => {
    const closed = await watchSocket(port, (socket) => socket.write(`${LOGIN_HEADERS}{"user`));
    expect(closed, 'the server kept the stalled connection open').not.toBeNull();
    expect(closed?.received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(closed?.afterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('closes a connection whose headers trickle in', async () => {
    const closed = await watchSocket(port, (socket) => trickle(socket, LOGIN_HEADERS, 200));
    expect(closed, 'the server kept the connection open').not.toBeNull();
    expect(closed?.received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(closed?.afterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT', async () => {
    const closed = await watchSocket(port, (socket) =>
      socket.write('GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'),
    );
    expect(closed, 'the server kept the idle connection open').not.toBeNull();
    expect(closed?.received).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(closed?.afterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });
});

describe('answers longer than the timeouts', () => {
  let kit: RelayKit;
  let upstream: OpenAIUpstream;
  let key: string;
  beforeAll(async () => {
    upstream = await startOpenAIUpstream('slow');
    kit = await startRelayKit(TIMEOUTS);
    await kit.createChannel({ upstream, models: 'gpt-4o-mini,whisper-1' });
    const user = await kit.createUser({ quota: 10_000_000 });
    key = (await kit.createKey(user.id)).key;
  });
  afterAll(async () => {
    await kit.close();
    await upstream.close();
  });

  it('streams a slow answer of 4 s to the end (the request timeout covers receiving the request only)', async () => {
    const words = Array.from({ length: 16 }, (_, index) => `w${index} `);
    upstream.behaviour = { words, chunkDelayMs: 250 };
    const startedAt = Date.now();
    const stream = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(words.join(''));
    expect(Date.now() - startedAt).toBeGreaterThan(3000);
  });

  it('waits for an upstream that thinks for 3 s before answering', async () => {
    upstream.behaviour = { delayMs: 3000, words: ['done'] };
    const answer = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.choices[0]?.message.content).toBe('done');
  });

  it('takes an 8 MB audio upload sent steadily within the timeout', async () => {
    upstream.behaviour = {};
    const boundary = 'gatehouse-slow-upload';
    const audio = Buffer.alloc(8 * 1024 * 1024, 7);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n` +
          'Content-Type: audio/wav\r\n\r\n',
      ),
      audio,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(`${kit.gatewayUrl}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      });
      request.on('response', (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: answer }));
      });
      request.on('error', reject);
      // Eight pieces 50 ms apart: under half a second on the wire, within the 1 s timeout.
      const pieces = 8;
      const size = Math.ceil(body.length / pieces);
      let index = 0;
      const timer = setInterval(() => {
        request.write(body.subarray(index * size, (index + 1) * size));
        index += 1;
        if (index === pieces) {
          clearInterval(timer);
          request.end();
        }
      }, 50);
    });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({ text: 'the quick brown fox' });
    expect(upstream.received.at(-1)?.body.length).toBe(body.length);
  });
});

describe('timeout settings', () => {
  const load = (env: Record<string, string>) => () => loadConfig({ SESSION_SECRET: 'x', ...env });

  it('defaults to 60 s for the request, 20 s for headers and 5 s for keep-alive', () => {
    expect(load({})()).toMatchObject({
      requestBodyTimeoutSeconds: 60,
      headersTimeoutSeconds: 20,
      keepAliveTimeoutSeconds: 5,
    });
  });

  it.each([
    [{ REQUEST_BODY_TIMEOUT: '0' }, 'REQUEST_BODY_TIMEOUT must be at least 1, got 0'],
    [{ REQUEST_BODY_TIMEOUT: '30s' }, 'REQUEST_BODY_TIMEOUT must be a whole number, got "30s"'],
    [{ KEEP_ALIVE_TIMEOUT: '-1' }, 'KEEP_ALIVE_TIMEOUT must be at least 1, got -1'],
    [{ KEEP_ALIVE_TIMEOUT: '9999999' }, 'KEEP_ALIVE_TIMEOUT must be at most 86400 seconds, got 9999999'],
    [{ HEADERS_TIMEOUT: '1.5' }, 'HEADERS_TIMEOUT must be a whole number, got "1.5"'],
    [
      { REQUEST_BODY_TIMEOUT: '10', HEADERS_TIMEOUT: '30' },
      'HEADERS_TIMEOUT (30) must not be longer than REQUEST_BODY_TIMEOUT (10)',
    ],
  ])('refuses %o at start, naming the variable', (env, message) => {
    expect(load(env)).toThrow(ConfigError);
    expect(load(env)).toThrow(message);
  });
});
