import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseKind).toBe('sqlite');
    expect(config.sqlitePath).toMatch(/data\/gatehouse\.db$/);
    expect(config.isMasterNode).toBe(true);
    expect(config.isSessionSecretGenerated).toBe(true);
    expect(config.sessionSecret).toHaveLength(64);
  });

  it('reads the Redis key prefix and the number of workers', () => {
    expect(loadConfig({}).redisKeyPrefix).toBe('gatehouse:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'eu-prod:' }).redisKeyPrefix).toBe('eu-prod:');
    expect(loadConfig({ REDIS_KEY_PREFIX: '' }).redisKeyPrefix).toBe('');
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
  });

  it('runs SQLite’s write transactions in a thread only when asked', () => {
    expect(loadConfig({}).sqliteTransactionsInThread).toBe(false);
    expect(loadConfig({ SQLITE_WRITE_THREAD: 'On' }).sqliteTransactionsInThread).toBe(true);
    expect(loadConfig({ SQLITE_WRITE_THREAD: 'off' }).sqliteTransactionsInThread).toBe(false);
  });

  it('accepts on eight descriptors of the listening socket unless ACCEPTORS says otherwise', () => {
    expect(loadConfig({}).acceptors).toBe(8);
    expect(loadConfig({ ACCEPTORS: '1' }).acceptors).toBe(1);
  });

  it('gives the answers under way 25 s at a stop unless SHUTDOWN_TIMEOUT says otherwise', () => {
    expect(loadConfig({}).shutdownTimeoutSeconds).toBe(25);
    expect(loadConfig({ SHUTDOWN_TIMEOUT: '120' }).shutdownTimeoutSeconds).toBe(120);
  });

  it('reads the database kind from SQL_DSN', () => {
    expect(loadConfig({ SQL_DSN: 'postgres://u@localhost/db' }).databaseKind).toBe('postgres');
    expect(loadConfig({ SQL_DSN: 'mysql://root@127.0.0.1:3306/test' }).databaseKind).toBe('mysql');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SQL_DSN: 'oracle://x' }, 'SQL_DSN'],
    [{ NODE_TYPE: 'primary' }, 'NODE_TYPE'],
    [{ SYNC_FREQUENCY: '0' }, 'SYNC_FREQUENCY'],
    [{ RELAY_TIMEOUT: '-5' }, 'RELAY_TIMEOUT'],
    [{ SHUTDOWN_TIMEOUT: '0' }, 'SHUTDOWN_TIMEOUT'],
    [{ CHANNEL_TEST_FREQUENCY: '1.5' }, 'CHANNEL_TEST_FREQUENCY'],
    [{ GLOBAL_API_RATE_LIMIT: 'lots' }, 'GLOBAL_API_RATE_LIMIT'],
    [{ GLOBAL_WEB_RATE_LIMIT: '0' }, 'GLOBAL_WEB_RATE_LIMIT'],
    [{ REDIS_CONN_STRING: 'localhost:6379' }, 'REDIS_CONN_STRING'],
    [{ TRUST_PROXY: 'my-proxy.example' }, 'TRUST_PROXY'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'text' }, 'LOG_FORMAT'],
    [{ SQLITE_WRITE_THREAD: 'auto' }, 'SQLITE_WRITE_THREAD'],
    [{ HOST: '127.0.0.1:3000' }, 'HOST'],
    [{ HOST: 'http://127.0.0.1' }, 'HOST'],
    [{ HOST: '127.0.0.256' }, 'HOST'],
    [{ HOST: '3000' }, 'HOST'],
    [{ HOST: '0.0.0.0/0' }, 'HOST'],
    [{ REDIS_KEY_PREFIX: 'my deployment:' }, 'REDIS_KEY_PREFIX'],
    [{ WORKERS: 'many' }, 'WORKERS'],
    [{ WORKERS: '0' }, 'WORKERS'],
    [{ WORKERS: '2.5' }, 'WORKERS'],
    [{ ACCEPTORS: '0' }, 'ACCEPTORS'],
    [{ ACCEPTORS: '65' }, 'ACCEPTORS'],
  ])('refuses %o with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('listens on every interface unless HOST names an address or host name', () => {
    expect(loadConfig({}).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: ' ' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
    expect(loadConfig({ HOST: 'localhost' }).host).toBe('localhost');
    expect(loadConfig({ HOST: 'gatehouse.internal' }).host).toBe('gatehouse.internal');
  });

  it('reads TRUST_PROXY as off, on, a hop count or a list of proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('reads LOG_LEVEL and LOG_FORMAT in any case, auto-detecting the format by default', () => {
    expect(loadConfig({})).toMatchObject({ logLevel: 'info', logFormat: 'auto' });
    expect(loadConfig({ LOG_LEVEL: 'DEBUG', LOG_FORMAT: ' Json ' })).toMatchObject({
      logLevel: 'debug',
      logFormat: 'json',
    });
  });

  it('names the allowed values of LOG_LEVEL and LOG_FORMAT when one is wrong', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(
      'LOG_FORMAT must be one of auto, pretty, json, got "text"',
    );
  });

  it('treats NODE_TYPE=slave as a non-master node', () => {
    expect(loadConfig({ NODE_TYPE: 'slave' }).isMasterNode).toBe(false);
  });
});
