import { describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { announceStart, buildStartBanner, describeDataLocation, toBaseUrl } from './start-banner';

const sqlite = {
  databaseKind: 'sqlite',
  sqlDsn: '',
  sqlitePath: '/srv/gatehouse/data/gatehouse.db',
} as const;
const everywhere = { address: '0.0.0.0', family: 'IPv4', port: 3000 };

describe('toBaseUrl', () => {
  it('answers localhost for a server on every interface, and the address otherwise', () => {
    expect(toBaseUrl(everywhere)).toBe('http://localhost:3000');
    expect(toBaseUrl({ address: '::', family: 'IPv6', port: 8080 })).toBe('http://localhost:8080');
    expect(toBaseUrl({ address: '127.0.0.1', family: 'IPv4', port: 3999 })).toBe('http://127.0.0.1:3999');
    expect(toBaseUrl({ address: '::1', family: 'IPv6', port: 3000 })).toBe('http://[::1]:3000');
  });
});

describe('describeDataLocation', () => {
  it('names the SQLite file', () => {
    expect(describeDataLocation(sqlite)).toBe('SQLite file /srv/gatehouse/data/gatehouse.db');
  });

  it('names the database server and database, never the user or the password', () => {
    const postgres = describeDataLocation({
      ...sqlite,
      databaseKind: 'postgres',
      sqlDsn: 'postgres://gatehouse:s3cret-pass@db.internal:5432/gatehouse?sslmode=require',
    });
    expect(postgres).toBe('PostgreSQL at db.internal:5432, database gatehouse');
    const mysql = describeDataLocation({
      ...sqlite,
      databaseKind: 'mysql',
      sqlDsn: 'mysql://root:p%40ss@127.0.0.1/one-api',
    });
    expect(mysql).toBe('MySQL at 127.0.0.1, database one-api');
    for (const text of [postgres, mysql]) expect(text).not.toMatch(/s3cret|p%40ss|p@ss|gatehouse:|root/);
  });
});

describe('the banner', () => {
  const write = (hasDefaultRootPassword: boolean) => {
    const banner = buildStartBanner(everywhere, sqlite, hasDefaultRootPassword);
    let text = '';
    announceStart(banner, 'pretty', {} as FastifyBaseLogger, (chunk) => (text += chunk));
    return text;
  };

  it('says where the console, the relay and the data are, and how to get in on a first start', () => {
    expect(write(true)).toBe(
      [
        'Gatehouse is ready',
        '  Console  http://localhost:3000',
        '  Relay    http://localhost:3000/v1  (OpenAI-compatible base URL, with a key made in the console)',
        '  Data     SQLite file /srv/gatehouse/data/gatehouse.db',
        '  Sign in  as root / 123456, then change the password',
        '',
      ].join('\n'),
    );
  });

  it('drops the sign-in line once root has another password', () => {
    expect(write(false)).not.toContain('123456');
    expect(write(false).trimEnd().split('\n')).toHaveLength(4);
  });

  it('logs the same facts as JSON lines when logs are JSON', () => {
    const log = { info: vi.fn(), warn: vi.fn() } as unknown as FastifyBaseLogger;
    const print = vi.fn();
    announceStart(buildStartBanner(everywhere, sqlite, true), 'json', log, print);
    expect(print).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith(
      {
        console: 'http://localhost:3000',
        relay: 'http://localhost:3000/v1',
        data: 'SQLite file /srv/gatehouse/data/gatehouse.db',
      },
      'Gatehouse is ready',
    );
    expect(log.warn).toHaveBeenCalledWith(
      'root still has the default password: sign in as root / 123456 and change it',
    );
  });
});
