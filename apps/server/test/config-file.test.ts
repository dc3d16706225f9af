import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelStatus, ChannelType } from '@gatehouse/shared';
import { applyConfigText, isEmptyDiff } from '../src/config-file/apply-config-file';
import { exportConfigFile } from '../src/config-file/export-config-file';
import { ConfigFileError } from '../src/config-file/read-config-file';
import { createTestApp, loginAs, type TestApp } from './test-app';

const env = { OPENAI_KEY: 'sk-from-the-environment', CLAUDE_KEY: 'sk-ant-secret' };

const FILE = `# channels, prices, groups and options of a small deployment
channels:
  - name: openai-main
    type: openai
    key: \${OPENAI_KEY}
    models: [gpt-4o, gpt-4o-mini]
    groups: [default, vip]
    model_mapping:
      gpt-4: gpt-4o
    priority: 5
    weight: 2
  - name: claude
    type: anthropic
    key: \${CLAUDE_KEY}
    base_url: https://claude.example.com
    models: claude-sonnet-4
    status: disabled
prices:
  ModelRatio:
    gpt-4o: 1.25
    gpt-4o-mini: 0.075
    claude-sonnet-4: 1.5
  CompletionRatio:
    gpt-4o: 4
groups:
  default: 1
  vip: 0.8
options:
  SystemName: Example Gateway
  RetryTimes: 3
  RegisterEnabled: false
`;

let test: TestApp;
beforeEach(async () => {
  test = await createTestApp();
});
afterEach(async () => {
  await test.close();
});

const apply = (text: string, variables: NodeJS.ProcessEnv = env) =>
  applyConfigText(test.context, text, { env: variables, fileName: 'gatehouse.yaml' });

const channels = () => test.context.db.selectFrom('channels').selectAll().orderBy('id').execute();

/** Everything a file can change, to compare before and after a refused file. */
async function snapshot() {
  const abilities = await test.context.db
    .selectFrom('abilities')
    .selectAll()
    .orderBy('channel_id')
    .orderBy('model')
    .orderBy('group')
    .execute();
  const options = await test.context.db.selectFrom('options').selectAll().orderBy('key').execute();
  return { channels: await channels(), abilities, options, memory: test.context.options.entries() };
}

async function refusal(text: string, variables: NodeJS.ProcessEnv = env): Promise<ConfigFileError> {
  const error = await apply(text, variables).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigFileError);
  return error as ConfigFileError;
}

describe('applying a configuration file', () => {
  it('creates the channels with their abilities, prices, groups and options', async () => {
    const diff = await apply(FILE);
    expect(diff.created).toEqual(['channel openai-main', 'channel claude']);
    expect(diff.changed).toEqual(
      expect.arrayContaining([
        'option ModelRatio',
        'option CompletionRatio',
        'option GroupRatio',
        'option SystemName',
        'option RetryTimes',
        'option RegisterEnabled',
      ]),
    );
    const [openai, claude] = await channels();
    expect(openai).toMatchObject({
      name: 'openai-main',
      type: ChannelType.openai,
      key: 'sk-from-the-environment',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      weight: 2,
      status: ChannelStatus.enabled,
    });
    expect(Number(openai!.priority)).toBe(5);
    expect(JSON.parse(openai!.model_mapping)).toEqual({ 'gpt-4': 'gpt-4o' });
    expect(claude).toMatchObject({
      type: ChannelType.anthropic,
      key: 'sk-ant-secret',
      base_url: 'https://claude.example.com',
      status: ChannelStatus.manuallyDisabled,
    });
    const abilities = await test.context.db
      .selectFrom('abilities')
      .selectAll()
      .where('channel_id', '=', openai!.id)
      .execute();
    expect(abilities).toHaveLength(4);
    expect(test.context.options.getJson('ModelRatio')).toEqual({
      'gpt-4o': 1.25,
      'gpt-4o-mini': 0.075,
      'claude-sonnet-4': 1.5,
    });
    expect(test.context.options.getJson('GroupRatio')).toEqual({ default: 1, vip: 0.8 });
    expect(test.context.options.get('SystemName')).toBe('Example Gateway');
    expect(test.context.options.get('RegisterEnabled')).toBe('false');
    const stored = await test.context.db
      .selectFrom('options')
      .selectAll()
      .where('key', '=', 'RetryTimes')
      .executeTakeFirst();
    expect(stored?.value).toBe('3');
  });

  it('changes nothing when the same file is applied again', async () => {
    await apply(FILE);
    const before = await snapshot();
    const audits = await test.context.db.selectFrom('audit_log').select('id').execute();
    const diff = await apply(FILE);
    expect(isEmptyDiff(diff)).toBe(true);
    expect(await snapshot()).toEqual(before);
    expect(await test.context.db.selectFrom('audit_log').select('id').execute()).toHaveLength(audits.length);
  });

  it('updates exactly what changed in the file', async () => {
    await apply(FILE);
    const [openaiBefore, claudeBefore] = await channels();
    const edited = FILE.replace('priority: 5', 'priority: 7')
      .replace('models: claude-sonnet-4', 'models: claude-sonnet-4, claude-haiku-4')
      .replace('gpt-4o: 4', 'gpt-4o: 3');
    const diff = await apply(edited);
    expect(diff).toEqual({
      created: [],
      changed: ['channel openai-main: priority', 'channel claude: models', 'option CompletionRatio'],
      deleted: [],
      leftAlone: [],
    });
    const [openai, claude] = await channels();
    expect({ ...openai, priority: Number(openai!.priority) }).toEqual({ ...openaiBefore, priority: 7 });
    expect(claude).toEqual({ ...claudeBefore, models: 'claude-sonnet-4,claude-haiku-4' });
    expect(test.context.options.getJson('CompletionRatio')).toEqual({ 'gpt-4o': 3 });
  });

  it('leaves channels the file does not name alone, and deletes them with prune: true', async () => {
    await apply(FILE);
    const onlyOpenai = FILE.replace(/ {2}- name: claude[\s\S]*?status: disabled\n/, '');
    const kept = await apply(onlyOpenai);
    expect(kept.deleted).toEqual([]);
    expect(kept.leftAlone).toEqual(['channel claude (not in the file; prune is off)']);
    expect(await channels()).toHaveLength(2);
    const pruned = await apply(`prune: true\n${onlyOpenai}`);
    expect(pruned.deleted).toEqual(['channel claude']);
    expect((await channels()).map((row) => row.name)).toEqual(['openai-main']);
  });

  it('refuses an invalid file with its line and column and changes nothing', async () => {
    await apply(FILE);
    const before = await snapshot();
    const cases: Array<[string, string, RegExp]> = [
      [FILE.replace('priority: 5', 'priority: high'), 'gatehouse.yaml:10:15', /priority/],
      [
        FILE.replace('type: anthropic', 'type: antropic'),
        'gatehouse.yaml:13:11',
        /unknown channel type "antropic"/,
      ],
      [
        FILE.replace('RetryTimes: 3', 'RetryTimes: -1'),
        'gatehouse.yaml:30:15',
        /RetryTimes must be a whole number/,
      ],
      [
        FILE.replace('weight: 2', 'weight: 2\n    wieght: 3'),
        'gatehouse.yaml:12:5',
        /unknown field "wieght"/,
      ],
      [FILE.replace('gpt-4o-mini: 0.075', 'gpt-4o-mini: cheap'), 'gatehouse.yaml:21:18', /number/],
      [FILE.replace('  vip: 0.8', ' vip: [0.8'), 'gatehouse.yaml', /.+/],
    ];
    for (const [text, where, problem] of cases) {
      const error = await refusal(text);
      expect(error.message.startsWith(where), error.message).toBe(true);
      expect(error.problem).toMatch(problem);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('refuses a file whose later entry fails a check of the management API, without writing the earlier ones', async () => {
    const text = FILE.replace('base_url: https://claude.example.com', 'base_url: not-an-address').replace(
      'name: openai-main',
      'name: openai-first',
    );
    const error = await refusal(text);
    expect(error.message).toMatch(/^gatehouse\.yaml:15:15: channels\.1\.base_url: /);
    expect(await channels()).toEqual([]);
    expect(test.context.options.get('SystemName')).toBe('Gatehouse');
  });

  it('names an environment variable the file refers to and that is not set', async () => {
    const error = await refusal(FILE, { OPENAI_KEY: 'sk-x' });
    expect(error.message).toBe(
      'gatehouse.yaml:14:10: channels.1.key: environment variable CLAUDE_KEY is not set',
    );
    expect(await channels()).toEqual([]);
  });
});

describe('exporting the configuration', () => {
  it('round-trips: the export applied to a fresh database gives the same channels, prices and options', async () => {
    await apply(FILE);
    const exported = await exportConfigFile(test.context, 'placeholders');
    expect(exported).not.toContain('sk-from-the-environment');
    expect(exported).toContain('key: ${CHANNEL_OPENAI_MAIN_KEY}');
    const fresh = await createTestApp();
    try {
      const diff = await applyConfigText(fresh.context, exported, {
        env: { CHANNEL_OPENAI_MAIN_KEY: 'sk-from-the-environment', CHANNEL_CLAUDE_KEY: 'sk-ant-secret' },
      });
      expect(diff.created).toHaveLength(2);
      const columns = (rows: Awaited<ReturnType<typeof channels>>) =>
        rows.map(({ id: _id, created_time: _created, ...rest }) => ({
          ...rest,
          model_mapping: JSON.parse(rest.model_mapping || '{}') as unknown,
        }));
      const copied = await fresh.context.db.selectFrom('channels').selectAll().orderBy('id').execute();
      expect(columns(copied)).toEqual(columns(await channels()));
      for (const key of [
        'ModelRatio',
        'CompletionRatio',
        'GroupRatio',
        'SystemName',
        'RetryTimes',
        'RegisterEnabled',
      ] as const) {
        expect(fresh.context.options.get(key)).toBe(test.context.options.get(key));
      }
      // and the exported file applied back where it came from changes nothing
      const again = await apply(exported, {
        CHANNEL_OPENAI_MAIN_KEY: 'sk-from-the-environment',
        CHANNEL_CLAUDE_KEY: 'sk-ant-secret',
      });
      expect(isEmptyDiff(again)).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('downloads for root only, with every secret as a placeholder', async () => {
    await apply(FILE);
    await test.context.options.set('SMTPToken', 'smtp-password');
    const root = await loginAs(test, 'root', '123456');
    const answer = await test.app.inject({ url: '/api/option/config-export', headers: root.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="gatehouse-config.yaml"');
    expect(answer.body).toContain('name: openai-main');
    expect(answer.body).toContain('SMTPToken: ${OPTION_SMTPTOKEN}');
    for (const secret of ['sk-from-the-environment', 'sk-ant-secret', 'smtp-password']) {
      expect(answer.body).not.toContain(secret);
    }
    expect((await test.app.inject({ url: '/api/option/config-export' })).statusCode).toBe(401);
  });
});

describe('the documentation', () => {
  it('has an example file that applies as it is', async () => {
    const page = readFileSync(new URL('../../../docs/configuration-as-code.md', import.meta.url), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const diff = await apply(example, {
      OPENAI_API_KEY: 'sk-openai',
      AZURE_OPENAI_KEY: 'azure-key',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret-example',
      SMTP_PASSWORD: 'smtp-password',
    });
    expect(diff.created).toEqual(['channel openai-main', 'channel azure-eastus', 'channel bedrock']);
    expect(test.context.options.getJson('ModelPrice')).toEqual({ 'dall-e-3': 0.04 });
  });
});
