import { afterAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@gatehouse/shared';
import { applyConfigText, isEmptyDiff } from '../src/config-file/apply-config-file';
import { exportConfigFile } from '../src/config-file/export-config-file';
import { ConfigFileError } from '../src/config-file/read-config-file';
import { loadConfig } from '../src/config/config';
import { closeContext, createContext } from '../src/context';
import { externalDatabaseServers, isListening } from './support/external-databases';

/** The one transaction of an application, its no-op re-application and the export on PostgreSQL and MySQL. */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const FILE = `channels:
  - name: main
    type: openai
    key: \${MAIN_KEY}
    models: [gpt-4o, gpt-4o-mini]
    groups: [default, vip]
    priority: 3
  - name: spare
    type: deepseek
    key: sk-spare
    models: deepseek-chat
    status: disabled
prices:
  ModelRatio: { gpt-4o: 1.25, deepseek-chat: 0.07 }
groups: { default: 1, vip: 0.5 }
options:
  RetryTimes: 2
`;
const env = { MAIN_KEY: 'sk-main' };

for (const server of externalDatabaseServers) {
  const reachable = await isListening(server.port);
  describe.skipIf(!reachable)(`the configuration file on ${server.name}`, () => {
    it('applies, re-applies as a no-op, refuses a bad file without writing, and exports', async () => {
      const database = await server.create('gatehouse_config_file');
      cleanups.push(database.drop);
      const context = await createContext(
        loadConfig({ SQL_DSN: database.dsn, SESSION_SECRET: 'config-test' }),
      );
      cleanups.unshift(() => closeContext(context));

      const first = await applyConfigText(context, FILE, { env });
      expect(first.created).toEqual(['channel main', 'channel spare']);
      const rows = await context.db.selectFrom('channels').selectAll().orderBy('id').execute();
      expect(rows.map((row) => [row.name, row.key, row.status])).toEqual([
        ['main', 'sk-main', ChannelStatus.enabled],
        ['spare', 'sk-spare', ChannelStatus.manuallyDisabled],
      ]);
      const abilities = await context.db.selectFrom('abilities').selectAll().execute();
      expect(abilities).toHaveLength(5);
      expect(isEmptyDiff(await applyConfigText(context, FILE, { env }))).toBe(true);

      // the first channel's change is fine, the second's type is not: neither is written
      const bad = FILE.replace('priority: 3', 'priority: 4').replace('type: deepseek', 'type: deepsek');
      await expect(applyConfigText(context, bad, { env })).rejects.toBeInstanceOf(ConfigFileError);
      const after = await context.db.selectFrom('channels').selectAll().orderBy('id').execute();
      expect(after.map((row) => Number(row.priority))).toEqual([3, 0]);

      const pruned = await applyConfigText(
        context,
        `prune: true\n${FILE.replace(/ {2}- name: spare[\s\S]*?disabled\n/, '')}`,
        { env },
      );
      expect(pruned.deleted).toEqual(['channel spare']);
      expect(await context.db.selectFrom('abilities').selectAll().execute()).toHaveLength(4);

      const exported = await exportConfigFile(context, 'placeholders');
      const again = await applyConfigText(context, exported, { env: { CHANNEL_MAIN_KEY: 'sk-main' } });
      expect(isEmptyDiff(again)).toBe(true);
    }, 60_000);
  });
}
