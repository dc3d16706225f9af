import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Thrown when the environment is wrong; the message names the variable so the operator can fix it. */
export class ConfigError extends Error {}

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export interface Config {
  port: number;
  databaseKind: DatabaseKind;
  sqlDsn: string;
  sqlitePath: string;
  redisConnString: string;
  sessionSecret: string;
  isSessionSecretGenerated: boolean;
  isMasterNode: boolean;
  /** seconds between option/cache reloads from the database (multi-instance) */
  syncFrequencySeconds: number;
  initialRootToken: string;
  initialRootAccessToken: string;
  /** seconds; 0 = no timeout */
  relayTimeoutSeconds: number;
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
  logLevel: string;
  /** Fastify's trustProxy: false, true, a hop count, or the proxies' addresses/CIDRs */
  trustProxy: boolean | number | string[];
  /** where "check for updates" reads the latest release (GitHub releases API format) */
  releasesUrl: string;
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const sessionSecret = env.SESSION_SECRET?.trim() ?? '';
  return {
    port,
    databaseKind: readDatabaseKind(sqlDsn),
    sqlDsn,
    sqlitePath: path.resolve(env.SQLITE_PATH?.trim() || './data/gatehouse.db'),
    redisConnString,
    sessionSecret: sessionSecret || randomBytes(32).toString('hex'),
    isSessionSecretGenerated: sessionSecret === '',
    isMasterNode: nodeType === 'master',
    syncFrequencySeconds: readInteger(env, 'SYNC_FREQUENCY', 60, 1),
    initialRootToken: env.INITIAL_ROOT_TOKEN?.trim() ?? '',
    initialRootAccessToken: env.INITIAL_ROOT_ACCESS_TOKEN?.trim() ?? '',
    relayTimeoutSeconds: readInteger(env, 'RELAY_TIMEOUT', 0),
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
    logLevel,
    trustProxy: readTrustProxy(env),
    releasesUrl: readUrl(
      env,
      'RELEASES_URL',
      'https://api.github.com/repos/gatehouse/gatehouse/releases/latest',
    ),
  };
}
