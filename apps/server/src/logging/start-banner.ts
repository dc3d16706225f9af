import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config';
import { DEFAULT_ROOT_PASSWORD, ROOT_USERNAME } from '../users/seed';
import type { ChosenLogFormat } from './logger-options';

/** What a person needs once the server answers: where to go, where the data is, how to get in. */
export interface StartBanner {
  consoleUrl: string;
  relayUrl: string;
  /** the SQLite file, or the database server and name (never its user or password) */
  data: string;
  hasDefaultRootPassword: boolean;
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/** The address to open: a server listening on every interface is reached on this machine as localhost. */
export function toBaseUrl(address: Pick<AddressInfo, 'address' | 'family' | 'port'>): string {
  if (WILDCARD_ADDRESSES.has(address.address)) return `http://localhost:${address.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The database server and name from SQL_DSN; what follows `user:password@` is all that is shown. */
function describeDatabaseServer(kind: string, dsn: string): string {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return `${kind} (SQL_DSN)`;
  }
  const server = url.host === '' ? 'local socket' : url.host;
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return name === '' ? `${kind} at ${server}` : `${kind} at ${server}, database ${name}`;
}

export function describeDataLocation(config: Pick<Config, 'databaseKind' | 'sqlDsn' | 'sqlitePath'>): string {
  if (config.databaseKind === 'postgres') return describeDatabaseServer('PostgreSQL', config.sqlDsn);
  if (config.databaseKind === 'mysql') return describeDatabaseServer('MySQL', config.sqlDsn);
  return `SQLite file ${config.sqlitePath}`;
}

export function buildStartBanner(
  address: Pick<AddressInfo, 'address' | 'family' | 'port'>,
  config: Pick<Config, 'databaseKind' | 'sqlDsn' | 'sqlitePath'>,
  hasDefaultRootPassword: boolean,
): StartBanner {
  const consoleUrl = toBaseUrl(address);
  return {
    consoleUrl,
    relayUrl: `${consoleUrl}/v1`,
    data: describeDataLocation(config),
    hasDefaultRootPassword,
  };
}

const rootLogin = `${ROOT_USERNAME} / ${DEFAULT_ROOT_PASSWORD}`;

/** The banner for people, a few lines. */
export function formatStartBanner(banner: StartBanner): string {
  const lines = [
    'Gatehouse is ready',
    `  Console  ${banner.consoleUrl}`,
    `  Relay    ${banner.relayUrl}  (OpenAI-compatible base URL, with a key made in the console)`,
    `  Data     ${banner.data}`,
  ];
  if (banner.hasDefaultRootPassword) lines.push(`  Sign in  as ${rootLogin}, then change the password`);
  return `${lines.join('\n')}\n`;
}

/** Pretty: the banner as it is. JSON: the same facts as log lines, so the output stays one JSON object a line. */
export function announceStart(
  banner: StartBanner,
  format: ChosenLogFormat,
  log: FastifyBaseLogger,
  write: (text: string) => void,
): void {
  if (format === 'pretty') {
    write(formatStartBanner(banner));
    return;
  }
  log.info({ console: banner.consoleUrl, relay: banner.relayUrl, data: banner.data }, 'Gatehouse is ready');
  if (banner.hasDefaultRootPassword) {
    log.warn(`root still has the default password: sign in as ${rootLogin} and change it`);
  }
}
