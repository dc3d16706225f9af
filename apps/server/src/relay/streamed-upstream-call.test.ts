import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../../test/support/scripted-upstream';
import { Agent } from '../http/undici-client';
import { ClientAbort } from './client-abort';
import type { RelayRuntime } from './relay-runtime';
import {
  chunksOfReadable,
  readAllChunks,
  sendUpstreamForStream,
  type ChunkHandler,
} from './streamed-upstream-call';

let upstream: ScriptedUpstream;
let origin: string;
/** what the stand-in upstream does with the next request */
let answer: (response: ServerResponse) => void = () => undefined;
let closedEarly = 0;
const dispatcher = new Agent({ keepAliveTimeout: 1000 });
const runtimeWithTimeout = (seconds: number) =>
  ({ context: { config: { relayTimeoutSeconds: seconds } }, dispatcher }) as unknown as RelayRuntime;

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

const send = (signal = new ClientAbort(), timeoutSeconds = 5) =>
  sendUpstreamForStream(
    runtimeWithTimeout(timeoutSeconds),
    { url: `${origin}/v1/chat/completions`, headers: { 'content-type': 'application/json' }, body: '{}' },
    signal,
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects the chunks as text, in the order they were handed over. */
function collect(): { texts: string[]; handle: ChunkHandler } {
  const texts: string[] = [];
  return {
    texts,
    handle: (chunk) => {
      texts.push(chunk.toString());
      return null;
    },
  };
}

/** Writes `count` events, each after the previous one was taken by the socket, and ends. */
async function writeEvents(response: ServerResponse, count: number, gapMs: number): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let index = 0; index < count; index += 1) {
    if (!response.write(`data: ${index}\n\n`))
      await new Promise((resolve) => response.once('drain', resolve));
    if (gapMs > 0) await sleep(gapMs);
  }
  response.end();
}

describe('sendUpstreamForStream', () => {
  it('answers at the headers, then hands every chunk over in order until the end', async () => {
    answer = (response) => void writeEvents(response, 8, 2);
    const response = await send();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const { texts, handle } = collect();
    await response.body.readChunks(handle);
    expect(texts.join('')).toBe([0, 1, 2, 3, 4, 5, 6, 7].map((index) => `data: ${index}\n\n`).join(''));
  });

  it('keeps the chunks that came with the headers until the body is read', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: all at once\n\n');
    };
    const response = await send();
    await sleep(20);
    expect((await readAllChunks(response.body)).toString()).toBe('data: all at once\n\n');
  });

  it("rejects with the reader's error when the body came whole before it was read", async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: {"cut\n\n');
    };
    const response = await send();
    await sleep(20);
    const reading = response.body.readChunks(() => {
      throw new Error('a stream event this gateway cannot read');
    });
    await expect(reading).rejects.toThrow('cannot read');
  });

  it('answers an error status as an answer, whose body can be read whole', async () => {
    answer = (response) => {
      response.writeHead(429, { 'retry-after': '1' });
      response.write('{"error":');
      setTimeout(() => response.end('{"message":"slow down"}}'), 5);
    };
    const response = await send();
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('1');
    expect((await readAllChunks(response.body)).toString()).toBe('{"error":{"message":"slow down"}}');
  });

  it('holds the upstream back while the reader waits for room, then reads on to the end in order', async () => {
    const total = 4000;
    const lineOf = (index: number) => `data: ${String(index).padStart(4, '0')}${'x'.repeat(1000)}\n\n`;
    let written = 0;
    let upstream: ServerResponse | null = null;
    answer = (response) => {
      upstream = response;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const writeMore = () => {
        while (written < total) {
          written += 1;
          if (!response.write(lineOf(written - 1))) {
            response.once('drain', writeMore);
            return;
          }
        }
        response.end();
      };
      writeMore();
    };
    const response = await send();
    const chunks: Buffer[] = [];
    let release: () => void = () => undefined;
    const reading = response.body.readChunks((chunk) => {
      chunks.push(chunk);
      // The first chunk finds the client's socket full for a while.
      return chunks.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : null;
    });
    await sleep(300);
    expect(chunks).toHaveLength(1);
    expect(written).toBeLessThan(total);
    expect(upstream!.writableNeedDrain).toBe(true);
    release();
    await reading;
    expect(written).toBe(total);
    const expected = Array.from({ length: total }, (_, index) => lineOf(index)).join('');
    expect(Buffer.concat(chunks).toString() === expected).toBe(true);
  });

  it('takes in a body nobody reads, so the upstream finishes and its connection is freed', async () => {
    let upstream: ServerResponse | null = null;
    answer = (response) => {
      upstream = response;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(Buffer.alloc(4_000_000, 'x'));
    };
    await send();
    await expect.poll(() => upstream?.writableFinished, { timeout: 2000 }).toBe(true);
  });

  it('does not time the upstream out while the reader holds it back', async () => {
    answer = (response) => void writeEvents(response, 3, 0);
    const response = await send(new ClientAbort(), 0.2);
    const { texts } = collect();
    await response.body.readChunks((chunk) => {
      texts.push(chunk.toString());
      return texts.length === 1 ? sleep(1500).then(() => undefined) : null;
    });
    expect(texts.join('')).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\n');
  });

  it('rejects the read when the body stops before its end, after handing over what came', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': '100' });
      response.write('data: partial\n\n');
      setTimeout(() => response.destroy(), 20);
    };
    const response = await send();
    const { texts, handle } = collect();
    await expect(response.body.readChunks(handle)).rejects.toThrow();
    expect(texts.join('')).toBe('data: partial\n\n');
  });

  it('rejects the read with a body timeout when the upstream goes quiet mid-stream', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 0\n\n');
    };
    const response = await send(new ClientAbort(), 0.2);
    const { handle } = collect();
    await expect(response.body.readChunks(handle)).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('cancels the upstream call when the client leaves mid-stream, and rejects the read at once', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 0\n\n');
    };
    const before = closedEarly;
    const signal = new ClientAbort();
    const response = await send(signal);
    const { texts, handle } = collect();
    const reading = response.body.readChunks(handle);
    await expect.poll(() => texts.length).toBe(1);
    signal.abort();
    await expect(reading).rejects.toThrow('cancelled');
    await expect.poll(() => closedEarly).toBe(before + 1);
  });

  it('cancels the upstream call when the client leaves before the headers', async () => {
    answer = () => undefined;
    const before = closedEarly;
    const signal = new ClientAbort();
    const sent = send(signal);
    await sleep(20);
    signal.abort();
    await expect(sent).rejects.toThrow('cancelled');
    await expect.poll(() => closedEarly).toBe(before + 1);
  });

  it("cancels the upstream call when the reader throws, and rejects the read with the reader's error", async () => {
    answer = (response) => void writeEvents(response, 50, 5);
    const before = closedEarly;
    const response = await send();
    const reading = response.body.readChunks(() => {
      throw new Error('a stream event this gateway cannot read');
    });
    await expect(reading).rejects.toThrow('cannot read');
    await expect.poll(() => closedEarly).toBe(before + 1);
  });
});

describe('chunksOfReadable (a transport)', () => {
  it('hands over the chunks in order', async () => {
    const { texts, handle } = collect();
    await chunksOfReadable(Readable.from([Buffer.from('a'), Buffer.from('b')])).readChunks(handle);
    expect(texts).toEqual(['a', 'b']);
  });

  it('rejects when the stream is destroyed before its end', async () => {
    const body = new Readable({ read: () => undefined });
    body.push(Buffer.from('a'));
    const reading = chunksOfReadable(body).readChunks(() => null);
    setTimeout(() => body.destroy(), 10);
    await expect(reading).rejects.toThrow('stopped before its end');
  });
});
