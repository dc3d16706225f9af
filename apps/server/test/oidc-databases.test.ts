import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext } from '../src/context';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { startFakeOidc } from './support/fake-oidc';

/** The oidc_id column (migration 0015) and the find-or-create by it on PostgreSQL and MySQL. */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`OIDC sign-in on ${server.name}`, () => {
    it('creates the user once and finds it by issuer and subject', async () => {
      const provider = await startFakeOidc('gatehouse', 'secret');
      cleanups.push(() => provider.close());
      const database = await server.create('gatehouse_oidc');
      cleanups.push(database.drop);
      const context = await createContext(loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'oidc-test' }));
      const app = await buildApp(context);
      cleanups.unshift(async () => {
        await app.close();
        await closeContext(context);
      });
      await context.options.set('ServerAddress', 'https://gate.example.com');
      await context.options.set('OidcDiscoveryURL', provider.discoveryUrl);
      await context.options.set('OidcClientId', 'gatehouse');
      await context.options.set('OidcClientSecret', 'secret');
      await context.options.set('OidcEnabled', 'true');
      // A subject longer than any GitHub or Lark id: the column holds issuer and subject together.
      const sub = `sub-${'x'.repeat(200)}`;
      provider.signInAs({ sub, claims: { preferred_username: 'dora', name: 'Dora' } });

      const signIn = async () => {
        const start = await app.inject({ url: '/api/oauth/oidc/start' });
        const cookie = start.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
        const atProvider = await fetch(start.json<{ data: string }>().data, { redirect: 'manual' });
        const back = new URL(atProvider.headers.get('location')!);
        const answer = await app.inject({ url: `/api/oauth/oidc${back.search}`, headers: { cookie } });
        return answer.json<{ success: boolean; data: { id: number; username: string; oidc_id: string } }>();
      };
      const first = await signIn();
      expect(first).toMatchObject({
        success: true,
        data: { username: 'dora', oidc_id: `${provider.url} ${sub}` },
      });
      const second = await signIn();
      expect(second.data.id).toBe(first.data.id);
      const rows = await context.db
        .selectFrom('users')
        .select('id')
        .where('oidc_id', '=', `${provider.url} ${sub}`)
        .execute();
      expect(rows).toHaveLength(1);
    });
  });
}
