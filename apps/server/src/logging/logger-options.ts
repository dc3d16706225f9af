import pino from 'pino';
import type { LogFormat, LogLevel } from '../config/config';
import { REQUEST_LINE_FIELDS, REQUEST_LINE_MESSAGE } from './request-log';

export type ChosenLogFormat = 'pretty' | 'json';

/** LOG_FORMAT=auto: lines for people on a terminal, JSON for log collectors (systemd, containers, files). */
export function chooseLogFormat(format: LogFormat, isTerminal: boolean): ChosenLogFormat {
  if (format === 'auto') return isTerminal ? 'pretty' : 'json';
  return format;
}

/** `POST /v1/chat/completions 200 in 35.2 ms (model gpt-4o-mini, key "my app")` */
export function formatRequestLine(log: Record<string, unknown>): string {
  const details = [
    log.model === undefined ? null : `model ${String(log.model)}`,
    log.keyName === undefined ? null : `key "${String(log.keyName)}"`,
    log.user === undefined ? null : `user ${String(log.user)}`,
  ].filter((detail) => detail !== null);
  const line = `${String(log.method)} ${String(log.path)} ${String(log.status)} in ${String(log.durationMs)} ms`;
  return details.length === 0 ? line : `${line} (${details.join(', ')})`;
}

/**
 * JSON lines are written once this many bytes wait, or every FLUSH_MS, whichever comes first; each write holds
 * whole lines and at most PIPE_BUF bytes, so the lines of several processes sharing one pipe (WORKERS) never
 * interleave within a line.
 */
const BUFFER_BYTES = 3584;
const PIPE_BUF = 4096;
const FLUSH_MS = 200;

/**
 * A file descriptor for JSON lines, written in blocks: one write per request line was one system call per
 * request on the relay's hot path. What waits is written every FLUSH_MS and when the process exits (also on
 * process.exit after an error); a process killed outright (SIGKILL) loses at most the last FLUSH_MS of lines.
 */
function bufferedDestination(fd: number): pino.DestinationStream {
  const destination = pino.destination({ dest: fd, sync: true, minLength: BUFFER_BYTES, maxWrite: PIPE_BUF });
  // Our timer, not sonic-boom's periodicFlush: that one flushes whether or not anything waits, and an empty
  // flush is an empty write(2) — five a second on an idle server. (flush, unlike flushSync, does not fsync.)
  let hasLines = false;
  const write = destination.write.bind(destination);
  destination.write = (line: string) => {
    hasLines = true;
    return write(line);
  };
  setInterval(() => {
    if (!hasLines) return;
    hasLines = false;
    destination.flush();
  }, FLUSH_MS).unref();
  process.on('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout closed (the reader is gone): nothing to do about lines nobody reads
    }
  });
  return destination;
}

/** What Fastify takes as its `logger`: a level and the stream the lines go to. */
export interface LoggerOptions {
  level: LogLevel;
  stream: pino.DestinationStream | NodeJS.WritableStream;
}

/**
 * A logger writing where the server's does, with its options, for what runs outside Fastify's requests (the
 * context's services: the Redis fallbacks, reservation recovery, the change feed). Without it their warnings
 * went nowhere, or to the console unformatted.
 */
export function createServerLogger(options: LoggerOptions): pino.Logger {
  return pino({ level: options.level }, options.stream);
}

/**
 * Fastify's logger options. JSON is pino's own output, unchanged, written in blocks to a file descriptor
 * (bufferedDestination); pretty loads pino-pretty only then, so JSON logging never pays for it, and writes
 * each line synchronously (a person's terminal, not a busy collector) to `destination`, stdout by default.
 */
export async function createLoggerOptions(
  level: LogLevel,
  format: ChosenLogFormat,
  destination: number | NodeJS.WritableStream = 1,
): Promise<LoggerOptions> {
  if (format === 'json') {
    return typeof destination === 'number'
      ? { level, stream: bufferedDestination(destination) }
      : { level, stream: destination };
  }
  const { default: pretty } = await import('pino-pretty');
  return {
    level,
    stream: pretty({
      destination,
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: ['pid', 'hostname', 'reqId', ...REQUEST_LINE_FIELDS].join(','),
      messageFormat: (log, messageKey) =>
        log[messageKey] === REQUEST_LINE_MESSAGE ? formatRequestLine(log) : String(log[messageKey] ?? ''),
    }),
  };
}
