import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { createDatabase, type Db } from '../src/db/database';
import { bundleGateway, startGatewayChild } from './support/gateway-child';

const file = (priority: number, extra = '') => `channels:
  - name: signal-test
    type: openai
    key: \${SIGNAL_TEST_KEY}
    models: [gpt-4o-mini]
    priority: ${priority}${extra}
options:
  SystemName: Signalled
`;

let bundle: string;
let folder: string;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  bundle = await bundleGateway();
  folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-config-signal-'));
}, 120_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(path.dirname(bundle), { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

async function waitFor<T>(read: () => Promise<T>, isDone: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the configuration file in a running server', () => {
  it('is applied at start and again on SIGHUP; a refused file is logged with line:column and changes nothing', async () => {
    const sqlitePath = path.join(folder, 'signal.db');
    const configPath = path.join(folder, 'gatehouse.yaml');
    writeFileSync(configPath, file(1));
    const child = await startGatewayChild(
      bundle,
      { sqlDsn: '', sqlitePath },
      { GATEHOUSE_CONFIG: configPath, SIGNAL_TEST_KEY: 'sk-signal' },
    );
    cleanups.push(() => child.kill());
    const db: Db = await createDatabase(
      loadConfig({ SQLITE_PATH: sqlitePath, SESSION_SECRET: 'signal-test' }),
    );
    cleanups.push(() => db.destroy());
    const channel = () => db.selectFrom('channels').selectAll().where('name', '=', 'signal-test').execute();

    const atStart = await channel();
    expect(atStart).toHaveLength(1);
    expect(atStart[0]).toMatchObject({ key: 'sk-signal', models: 'gpt-4o-mini' });
    expect(Number(atStart[0]!.priority)).toBe(1);
    const status = (await (await fetch(`${child.url}/api/status`)).json()) as {
      data: { system_name: string };
    };
    expect(status.data.system_name).toBe('Signalled');

    writeFileSync(configPath, file(9));
    child.process.kill('SIGHUP');
    const changed = await waitFor(channel, (rows) => Number(rows[0]?.priority) === 9);
    expect(changed).toHaveLength(1);
    expect(Number(changed[0]!.priority)).toBe(9);
    expect(changed[0]!.id).toBe(atStart[0]!.id);

    writeFileSync(configPath, file(3, '\n    weight: heavy'));
    child.process.kill('SIGHUP');
    await waitFor(
      async () => child.output(),
      (output) => output.includes('configuration file refused'),
    );
    expect(child.output()).toContain(`${configPath}:7:13: channels.0.weight:`);
    expect(child.process.exitCode).toBeNull();
    expect(Number((await channel())[0]!.priority)).toBe(9);
    expect((await fetch(`${child.url}/api/status`)).ok).toBe(true);
    await child.stop();
  }, 120_000);

  it('refuses to start on a file it refuses, naming line and column', async () => {
    const configPath = path.join(folder, 'broken.yaml');
    writeFileSync(configPath, file(1).replace('type: openai', 'type: openia'));
    const started = startGatewayChild(
      bundle,
      { sqlDsn: '', sqlitePath: path.join(folder, 'broken.db') },
      { GATEHOUSE_CONFIG: configPath, SIGNAL_TEST_KEY: 'sk-signal' },
    );
    await expect(started).rejects.toThrow(`the gateway exited (1)`);
    await expect(started).rejects.toThrow(
      `${configPath}:3:11: channels.0.type: unknown channel type "openia"`,
    );
  }, 120_000);
});
