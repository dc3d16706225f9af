import { afterAll, describe, expect, it } from 'vitest';
import { ChannelStatus, type AuditEntry } from '@gatehouse/shared';
import { buildApp } from '../src/app';
import { pruneAuditLog } from '../src/audit/audit-pruning';
import { setChannelStatus } from '../src/channels/channel-status';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext } from '../src/context';
import { channelForm } from './channels-helpers';
import { externalDatabaseServers, isListening } from './support/external-databases';
import { sessionCookie } from './test-app';

/** The audit table, its writes inside channel transactions, its filters and its pruning on PostgreSQL and MySQL. */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`the audit log on ${server.name}`, () => {
    it('records, masks, filters and prunes', async () => {
      const database = await server.create('gatehouse_audit');
      cleanups.push(database.drop);
      const context = await createContext(
        loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'audit-test' }),
      );
      const app = await buildApp(context);
      cleanups.unshift(async () => {
        await app.close();
        await closeContext(context);
      });
      const login = await app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'root', password: '123456' },
      });
      const headers = { cookie: sessionCookie(login) };

      const created = await app.inject({
        method: 'POST',
        url: '/api/channel/',
        headers,
        payload: channelForm({ key: 'sk-a\nsk-b' }),
      });
      const ids = created.json<{ data: { ids: number[] } }>().data.ids;
      expect(ids).toHaveLength(2);
      const edited = await app.inject({
        method: 'PUT',
        url: '/api/channel/',
        headers,
        payload: { ...channelForm({ key: 'sk-rotated', priority: 7 }), id: ids[0] },
      });
      expect(edited.json()).toMatchObject({ success: true });
      expect(await setChannelStatus(context, ids[1]!, ChannelStatus.autoDisabled)).toBe(true);

      const read = async (query: string) => {
        const response = await app.inject({ url: `/api/audit?${query}`, headers });
        expect(response.body).not.toMatch(/sk-(a|b|rotated)/);
        return response.json<{ data: AuditEntry[] }>().data;
      };
      expect((await read('')).map((entry) => entry.action)).toEqual([
        'channel.disable',
        'channel.update',
        'channel.create',
        'channel.create',
      ]);
      expect(await read(`target_type=channel&target_id=${ids[0]}&action=channel.update`)).toMatchObject([
        {
          actor_name: 'root',
          changes: [
            { field: 'key', masked: true },
            { field: 'priority', before: 0, after: 7 },
          ],
        },
      ]);
      expect(await read('actor=system')).toHaveLength(1);

      await context.db
        .updateTable('audit_log')
        .set({ created_at: 1 })
        .where('action', '=', 'channel.create')
        .execute();
      expect(await pruneAuditLog(context)).toBe(0);
      await context.options.set('LogRetentionDays', '1');
      expect(await pruneAuditLog(context)).toBe(2);
      expect(await read('')).toHaveLength(2);
    });
  });
}
