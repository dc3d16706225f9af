import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Thrown when the environment is wrong; the message names the variable so the operator can fix it. */
export class ConfigError extends Error {}

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export interface Config {
  port: number;
  /** the listen address: 0.0.0.0 (every interface) unless HOST says otherwise, e.g. 127.0.0.1 behind a local proxy */
  host: string;
  databaseKind: DatabaseKind;
  sqlDsn: string;
  sqlitePath: string;
  redisConnString: string;
  /** put before every key written to Redis, so deployments can share one Redis (REDIS_KEY_PREFIX) */
  redisKeyPrefix: string;
  /** relay processes sharing the port (WORKERS: a number, or `auto` for one per core); 1 = this process alone */
  workers: number;
  /**
   * descriptors of the listening socket this process accepts on, each one new connection per event-loop turn
   * (ACCEPTORS; 1 = Node's own one): a busy loop then drains a burst of connections that many times faster
   */
  acceptors: number;
  /**
   * SQLite: whether the relay's write transactions run in the write thread, off the event loop
   * (SQLITE_WRITE_THREAD: off, the default, or on). Measured, the hand-over costs more than it saves but for
   * the event loop's delay: more CPU per request, and a lone request waits longer (bench/README.md).
   */
  sqliteTransactionsInThread: boolean;
  sessionSecret: string;
  isSessionSecretGenerated: boolean;
  isMasterNode: boolean;
  /** seconds between option/cache reloads from the database (multi-instance) */
  syncFrequencySeconds: number;
  initialRootToken: string;
  initialRootAccessToken: string;
  /** seconds; 0 = no timeout */
  relayTimeoutSeconds: number;
  /** seconds a client has to send its whole request, headers and body, however slowly it trickles */
  requestBodyTimeoutSeconds: number;
  /** seconds a client has to send the request line and headers; at most requestBodyTimeoutSeconds */
  headersTimeoutSeconds: number;
  /** seconds an idle keep-alive connection stays open waiting for the next request */
  keepAliveTimeoutSeconds: number;
  /**
   * seconds a stopping server (SIGTERM) lets the answers under way run before it closes their connections,
   * settling them as if their clients had left (SHUTDOWN_TIMEOUT)
   */
  shutdownTimeoutSeconds: number;
  /** minutes; 0 = no scheduled channel tests */
  channelTestFrequencyMinutes: number;
  /** requests per address per 3 minutes */
  globalApiRateLimit: number;
  globalWebRateLimit: number;
  /** requests per address per 20 minutes on login, registration, e-mail and OAuth routes */
  criticalRateLimit: number;
  /** third-party endpoints, configurable so tests and proxies can stand in for them */
  githubOAuthBaseUrl: string;
  githubApiBaseUrl: string;
  larkApiBaseUrl: string;
  turnstileVerifyUrl: string;
  /** where the built console lives */
  webDistPath: string;
  logLevel: LogLevel;
  /** pretty: readable lines; json: one JSON object a line; auto: pretty when stdout is a terminal */
  logFormat: LogFormat;
  /** Fastify's trustProxy: false, true, a hop count, or the proxies' addresses/CIDRs */
  trustProxy: boolean | number | string[];
  /** where "check for updates" reads the latest release (GitHub releases API format) */
  releasesUrl: string;
  /** OpenTelemetry traces, from the standard OTEL_* variables */
  traces: TraceConfig;
}

export interface TraceConfig {
  /** the OTLP/HTTP traces URL, e.g. http://collector:4318/v1/traces; empty = no tracing, no SDK started */
  tracesUrl: string;
  serviceName: string;
}

type Environment = Record<string, string | undefined>;

function readInteger(env: Environment, name: string, fallback: number, minimum = 0): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < minimum) throw new ConfigError(`${name} must be at least ${minimum}, got ${value}`);
  return value;
}

/** The longest timeout accepted: Node's socket timers overflow past ~24 days and would fire at once. */
const MAX_TIMEOUT_SECONDS = 86_400;

/** A timeout in whole seconds from 1 to a day. */
function readTimeoutSeconds(env: Environment, name: string, fallback: number): number {
  const seconds = readInteger(env, name, fallback, 1);
  if (seconds > MAX_TIMEOUT_SECONDS) {
    throw new ConfigError(`${name} must be at most ${MAX_TIMEOUT_SECONDS} seconds, got ${seconds}`);
  }
  return seconds;
}

/**
 * Timeouts for slow clients. The request timeout bounds the time to receive the whole request, so a client
 * trickling its body a byte at a time cannot stretch it; the answer (a long stream) is not covered. Node refuses
 * a headers timeout longer than the request timeout, so that is refused here, naming both.
 */
function readClientTimeouts(env: Environment) {
  const requestBodyTimeoutSeconds = readTimeoutSeconds(env, 'REQUEST_BODY_TIMEOUT', 60);
  const headersTimeoutSeconds = readTimeoutSeconds(env, 'HEADERS_TIMEOUT', 20);
  if (headersTimeoutSeconds > requestBodyTimeoutSeconds) {
    throw new ConfigError(
      `HEADERS_TIMEOUT (${headersTimeoutSeconds}) must not be longer than REQUEST_BODY_TIMEOUT (${requestBodyTimeoutSeconds})`,
    );
  }
  const keepAliveTimeoutSeconds = readTimeoutSeconds(env, 'KEEP_ALIVE_TIMEOUT', 5);
  return { requestBodyTimeoutSeconds, headersTimeoutSeconds, keepAliveTimeoutSeconds };
}

/** An http(s) base address without a trailing slash. */
function readUrl(env: Environment, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// address, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// address, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/**
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is the traces URL as it is; OTEL_EXPORTER_OTLP_ENDPOINT is the collector's
 * base, to which /v1/traces is added (the OTLP exporter specification's rule). OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none turn tracing off whatever the endpoints say.
 */
function readTraceConfig(env: Environment): TraceConfig {
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'gatehouse';
  const tracesEndpoint = readUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '');
  const baseEndpoint = readUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', '');
  const isDisabled =
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' ||
    env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  if (isDisabled) return { tracesUrl: '', serviceName };
  return { tracesUrl: tracesEndpoint || (baseEndpoint && `${baseEndpoint}/v1/traces`), serviceName };
}

function readDatabaseKind(dsn: string): DatabaseKind {
  if (dsn === '') return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(dsn)) return 'postgres';
  if (/^mysql:\/\//.test(dsn)) return 'mysql';
  throw new ConfigError('SQL_DSN must be empty (SQLite), a postgres://… or a mysql://… address');
}

/** The console build sits in apps/web/dist; this file runs from src/config (tsx) or from the dist bundle. */
function findWebDist(): string {
  const candidates = ['../../../web/dist', '../../web/dist'].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  return candidates.find((candidate) => existsSync(path.join(candidate, 'index.html'))) ?? candidates[0];
}

/** TRUST_PROXY: empty = no proxy; `true`; a number of hops; or a comma list of proxy addresses / CIDRs. */
function readTrustProxy(env: Environment): boolean | number | string[] {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const isAddress = (entry: string) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry) || entry === 'loopback';
  if (!entries.every(isAddress)) {
    throw new ConfigError(
      'TRUST_PROXY must be true, a number of hops, or a comma list of proxy addresses or CIDRs',
    );
  }
  return entries;
}

/** HOST: an IPv4 or IPv6 address or a host name to listen on; empty = every interface (0.0.0.0). */
function readHost(env: Environment): string {
  const raw = env.HOST?.trim() ?? '';
  if (raw === '') return '0.0.0.0';
  const isHostName =
    /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
  // A name of digits and dots would be a mistyped address (127.0.0.256) or a port (3000), never a real host.
  const isValid = isIP(raw) !== 0 || (isHostName.test(raw) && !/^[\d.]+$/.test(raw));
  if (!isValid) {
    throw new ConfigError(
      `HOST must be an address to listen on such as 0.0.0.0, 127.0.0.1 or ::1 (no scheme or port), got "${raw}"`,
    );
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** One of a fixed list of words (any case); the error lists them all. */
function readChoice<T extends string>(env: Environment, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return fallback;
  const value = choices.find((choice) => choice === raw.toLowerCase());
  if (value === undefined)
    throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  return value;
}

/** REDIS_KEY_PREFIX: printable characters without spaces, at most 64; empty means no prefix at all. */
function readRedisKeyPrefix(env: Environment): string {
  const raw = env.REDIS_KEY_PREFIX;
  if (raw === undefined) return 'gatehouse:';
  const prefix = raw.trim();
  if (!/^[\x21-\x7e]{0,64}$/.test(prefix)) {
    throw new ConfigError(
      `REDIS_KEY_PREFIX must be at most 64 printable characters without spaces (e.g. "gatehouse-eu:"), got "${raw}"`,
    );
  }
  return prefix;
}

/** The most workers accepted: more processes than this would only fight over the cores and the database. */
const MAX_WORKERS = 256;

/** WORKERS: empty or 1 = one process; a whole number; or `auto` = one per core the machine offers. */
function readWorkers(env: Environment, cores: number): number {
  const raw = env.WORKERS?.trim().toLowerCase() ?? '';
  if (raw === 'auto') return Math.max(1, Math.min(MAX_WORKERS, cores));
  if (raw !== '' && !/^\d+$/.test(raw)) {
    throw new ConfigError(`WORKERS must be a whole number of processes or "auto", got "${env.WORKERS}"`);
  }
  const workers = readInteger(env, 'WORKERS', 1, 1);
  if (workers > MAX_WORKERS) throw new ConfigError(`WORKERS must be at most ${MAX_WORKERS}, got ${workers}`);
  return workers;
}

/** SQLITE_WRITE_THREAD: off (the default) or on. */
function readTransactionsInThread(env: Environment): boolean {
  return readChoice(env, 'SQLITE_WRITE_THREAD', ['off', 'on'] as const, 'off') === 'on';
}

/** Past this many, more descriptors only add wasted accept calls per new connection. */
const MAX_ACCEPTORS = 64;

function readAcceptors(env: Environment): number {
  const acceptors = readInteger(env, 'ACCEPTORS', 8, 1);
  if (acceptors > MAX_ACCEPTORS) {
    throw new ConfigError(`ACCEPTORS must be at most ${MAX_ACCEPTORS}, got ${acceptors}`);
  }
  return acceptors;
}

export function loadConfig(env: Environment = process.env): Config {
  const port = readInteger(env, 'PORT', 3000);
  if (port > 65535) throw new ConfigError(`PORT must be between 0 and 65535, got ${port}`);
  const sqlDsn = env.SQL_DSN?.trim() ?? '';
  const nodeType = (env.NODE_TYPE?.trim() || 'master').toLowerCase();
  if (nodeType !== 'master' && nodeType !== 'slave') {
    throw new ConfigError(`NODE_TYPE must be "master" or "slave", got "${env.NODE_TYPE}"`);
  }
  const redisConnString = env.REDIS_CONN_STRING?.trim() ?? '';
  if (redisConnString !== '' && !/^rediss?:\/\//.test(redisConnString)) {
    throw new ConfigError('REDIS_CONN_STRING must start with redis:// or rediss://');
  }
  const sessionSecret = env.SESSION_SECRET?.trim() ?? '';
  return {
    port,
    host: readHost(env),
    databaseKind: readDatabaseKind(sqlDsn),
    sqlDsn,
    sqlitePath: path.resolve(env.SQLITE_PATH?.trim() || './data/gatehouse.db'),
    redisConnString,
    redisKeyPrefix: readRedisKeyPrefix(env),
    workers: readWorkers(env, availableParallelism()),
    acceptors: readAcceptors(env),
    sqliteTransactionsInThread: readTransactionsInThread(env),
    sessionSecret: sessionSecret || randomBytes(32).toString('hex'),
    isSessionSecretGenerated: sessionSecret === '',
    isMasterNode: nodeType === 'master',
    syncFrequencySeconds: readInteger(env, 'SYNC_FREQUENCY', 60, 1),
    initialRootToken: env.INITIAL_ROOT_TOKEN?.trim() ?? '',
    initialRootAccessToken: env.INITIAL_ROOT_ACCESS_TOKEN?.trim() ?? '',
    relayTimeoutSeconds: readInteger(env, 'RELAY_TIMEOUT', 0),
    ...readClientTimeouts(env),
    shutdownTimeoutSeconds: readTimeoutSeconds(env, 'SHUTDOWN_TIMEOUT', 25),
    channelTestFrequencyMinutes: readInteger(env, 'CHANNEL_TEST_FREQUENCY', 0),
    globalApiRateLimit: readInteger(env, 'GLOBAL_API_RATE_LIMIT', 480, 1),
    globalWebRateLimit: readInteger(env, 'GLOBAL_WEB_RATE_LIMIT', 240, 1),
    criticalRateLimit: readInteger(env, 'CRITICAL_RATE_LIMIT', 20, 1),
    githubOAuthBaseUrl: readUrl(env, 'GITHUB_OAUTH_BASE_URL', 'https://github.com'),
    githubApiBaseUrl: readUrl(env, 'GITHUB_API_BASE_URL', 'https://api.github.com'),
    larkApiBaseUrl: readUrl(env, 'LARK_API_BASE_URL', 'https://open.feishu.cn'),
    turnstileVerifyUrl: readUrl(
      env,
      'TURNSTILE_VERIFY_URL',
      'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    ),
    webDistPath: path.resolve(env.WEB_DIST_PATH?.trim() || findWebDist()),
    logLevel: readChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: readChoice(env, 'LOG_FORMAT', LOG_FORMATS, 'auto'),
    trustProxy: readTrustProxy(env),
    releasesUrl: readUrl(
      env,
      'RELEASES_URL',
      'https://api.github.com/repos/gatehouse/gatehouse/releases/latest',
    ),
    traces: readTraceConfig(env),
  };
}
