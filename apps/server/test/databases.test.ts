import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext } from '../src/context';
import { externalDatabaseServers, isListening } from './support/external-databases';

/** The same migrations and queries on PostgreSQL and MySQL/MariaDB, when the machine runs them. */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`on ${server.name}`, () => {
    it('migrates, seeds root, registers, logs in and stores options', async () => {
      const database = await server.create('gatehouse_test');
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
      // root edits the balance (a write conditioned on the row as read)
      const rootLogin = await app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'root', password: '123456' },
      });
      const session = rootLogin.cookies.find((cookie) => cookie.name === 'gatehouse_session');
      const edit = await app.inject({
        method: 'PUT',
        url: '/api/user/',
        headers: { cookie: `gatehouse_session=${session?.value}` },
        payload: { id: login.json<{ data: { id: number } }>().data.id, quota: 1234 },
      });
      expect(edit.json()).toMatchObject({ success: true, data: { username: 'portable', quota: 1234 } });
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
