/**
 * Errors that mean the database cannot be reached right now (stopped, restarting, the connection dropped),
 * as opposed to a query that is wrong: the first deserve a 503 that says "try again", the second a 500.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down)
  '57P01',
  '57P02',
  '57P03',
  // MySQL (mysql2)
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  // SQLite: another writer held the database past busy_timeout
  'SQLITE_BUSY',
  // SQLite: the disk is full; nothing of the failed write was kept, and it works again once there is room
  'SQLITE_FULL',
]);

/** SQLite: the file could not be read or written (SQLITE_IOERR and its extended codes, SQLITE_IOERR_WRITE …). */
const SQLITE_IO_ERROR = 'SQLITE_IOERR';

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'terminating connection',
  'the database system is',
  'Client has encountered a connection error',
  // mysql2: a pooled connection the server dropped, used before the pool noticed
  "Can't add new command when connection is in closed state",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith(SQLITE_IO_ERROR))) {
    return true;
  }
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.some((text) => error.message.includes(text));
}
