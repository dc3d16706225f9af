import { createConnection } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext } from '../src/context';

/**
 * The same migrations and queries on PostgreSQL and MySQL/MariaDB, when the machine runs them
 * (this project's machines do: 127.0.0.1:5432 and :3306). Each run uses a database of its own.
 */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const answer = (isOpen: boolean) => {
      socket.destroy();
      resolve(isOpen);
    };
    socket.setTimeout(500);
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

const databaseName = `gatehouse_test_${process.pid}_${Date.now() % 100000}`;

async function createPostgresDatabase(): Promise<{ dsn: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  return {
    dsn: `postgres://postgres@127.0.0.1:5432/${databaseName}`,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
      await admin.end();
    },
  };
}

async function createMysqlDatabase(): Promise<{ dsn: string; drop: () => Promise<void> }> {
  const { createConnection: connect } = await import('mysql2/promise');
  const admin = await connect({ host: '127.0.0.1', port: 3306, user: 'root' });
  await admin.query(`CREATE DATABASE ${databaseName}`);
  return {
    dsn: `mysql://root@127.0.0.1:3306/${databaseName}`,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
      await admin.end();
    },
  };
}

const servers = [
  { name: 'PostgreSQL', port: 5432, create: createPostgresDatabase },
  { name: 'MySQL', port: 3306, create: createMysqlDatabase },
];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

for (const server of servers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`on ${server.name}`, () => {
    it('migrates, seeds root, registers, logs in and stores options', async () => {
      const database = await server.create();
      cleanups.push(database.drop);
      const context = await createContext(
        loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'database-test' }),
      );
      cleanups.unshift(() => closeContext(context));
      const app = await buildApp(context);
      const register = await app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { username: 'portable', password: 'password1' },
      });
      expect(register.json()).toMatchObject({ success: true });
      const login = await app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'portable', password: 'password1' },
      });
      expect(login.json()).toMatchObject({ success: true, data: { username: 'portable', quota: 0 } });
      await context.options.set('SystemName', 'First');
      await context.options.set('SystemName', 'Second');
      await context.options.reload();
      expect(context.options.get('SystemName')).toBe('Second');
      const root = await context.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', 'root')
        .executeTakeFirstOrThrow();
      expect(typeof root.quota).toBe('number');
      await app.close();
    });
  });
}
