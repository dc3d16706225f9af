import type { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type WebSocketClass from 'ws';
import type { RawData } from 'ws';
import type { UpstreamAnswer } from '../provider-types';
import { statusOfSparkErrorCode } from './map-spark-error-code';
import { SPARK_FRAME_SEPARATOR } from './spark-frame-decoder';
import { lazyPackage } from '../../lazy-package';

/** Loaded with the first Spark request (the only WebSocket upstream). */
const ws = lazyPackage<typeof WebSocketClass>('ws');

export interface SparkStreamOptions {
  /** how long to wait for the handshake, in milliseconds; 0 or absent waits as long as the OS does */
  handshakeTimeoutMs?: number;
}

function frameText(data: RawData): string {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  // A frame is one JSON text; raw line breaks in it are white space between tokens, never inside strings.
  return bytes.toString('utf8').replace(/[\r\n]+/g, ' ');
}

function readHeader(text: string): { code: number; status?: number } | null {
  try {
    const header = (JSON.parse(text) as { header?: { code?: unknown; status?: unknown } }).header;
    return typeof header?.code === 'number'
      ? { code: header.code, status: typeof header.status === 'number' ? header.status : undefined }
      : null;
  } catch {
    return null;
  }
}

function onAbort(signal: AbortSignal | EventEmitter | undefined, abort: () => void): () => void {
  if (!signal) return () => undefined;
  if ('aborted' in signal) {
    if (signal.aborted) queueMicrotask(abort);
    signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  }
  // The relay's ClientAbort is an emitter that remembers having fired.
  if ((signal as { isAborted?: boolean }).isAborted) queueMicrotask(abort);
  signal.once('abort', abort);
  return () => signal.off('abort', abort);
}

/**
 * Sends Spark's request frame over a WebSocket to the signed URL and answers as an HTTP call would, so the
 * relay needs nothing of WebSockets:
 * - a refused handshake (a wrong signature or key: 401/403 with `{"message": …}`) is that status and body;
 * - an error frame before any text (11200 no licence, 10013 a refused input …) is the HTTP status its code
 *   stands for, with the frame as the body, for the adapter's readError;
 * - otherwise 200, and the body streams the answer frames one per line until the frame with status 2, when the
 *   connection is closed. A connection lost before it ends the body early (the decoder reports the cut).
 * Rejects when the connection fails before any answer. `signal` aborting closes the connection.
 */
export function openSparkStream(
  url: string,
  frame: string | Buffer,
  signal?: AbortSignal | EventEmitter,
  options: SparkStreamOptions = {},
): Promise<UpstreamAnswer> {
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const WebSocket = ws();
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      ...(options.handshakeTimeoutMs ? { handshakeTimeout: options.handshakeTimeoutMs } : {}),
    });
    const body = new PassThrough();
    let isAnswered = false;
    const answer = (value: UpstreamAnswer) => {
      isAnswered = true;
      resolve(value);
    };
    const stopListening = onAbort(signal, () => {
      socket.terminate();
      if (isAnswered) body.destroy(new Error('the call was aborted'));
      else reject(new Error('the call was aborted'));
    });
    body.on('close', () => {
      stopListening();
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
        socket.terminate();
    });
    body.on('drain', () => socket.resume());

    socket.on('unexpected-response', (request, response) => {
      stopListening();
      response.on('close', () => request.destroy());
      answer({ statusCode: response.statusCode ?? 502, headers: response.headers, body: response });
    });
    socket.on('open', () => socket.send(frame));
    socket.on('message', (data) => {
      const text = frameText(data);
      const header = readHeader(text);
      if (!isAnswered) {
        if (header && header.code !== 0) {
          socket.close(1000);
          stopListening();
          const status = statusOfSparkErrorCode(header.code);
          answer({
            statusCode: status,
            headers: { 'content-type': 'application/json' },
            body: Readable.from([Buffer.from(text)]),
          });
          return;
        }
        answer({ statusCode: 200, headers: { 'content-type': 'application/x-ndjson' }, body });
      }
      if (!body.write(`${text}${SPARK_FRAME_SEPARATOR}`)) socket.pause();
      if (header?.status === 2 || header?.code) {
        body.end();
        socket.close(1000);
      }
    });
    socket.on('close', () => {
      if (!isAnswered) reject(new Error('iFlytek Spark closed the connection before answering'));
      else if (!body.writableEnded) body.end();
    });
    socket.on('error', (error) => {
      if (!isAnswered) reject(error);
      else body.destroy(error);
    });
  });
}
