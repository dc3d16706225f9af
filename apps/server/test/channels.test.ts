import { describe, expect, it } from 'vitest';
import { ChannelStatus, MAX_KEYS_PER_BATCH, Role, channelMessages, channelTypes } from '@gatehouse/shared';
import { createUserSession, envelope } from './test-app';
import { channelApi, channelForm } from './channels-helpers';
import { api, root, test, useChannelsApp } from './support/channels-app';

/**
 * The channel API: who may call it, what it refuses, batch creation, listing, search, deletion and the known
 * models. What each channel type does with its key, and how keys stay secret, is in
 * channels-types-and-keys.test.ts.
 */
useChannelsApp();

describe('roles', () => {
  const routes: Array<[string, string, Record<string, unknown>?]> = [
    ['GET', '/api/channel/'],
    ['GET', '/api/channel/search?keyword=a'],
    ['GET', '/api/channel/1'],
    ['POST', '/api/channel/', channelForm()],
    ['PUT', '/api/channel/', { id: 1, priority: 3 }],
    ['DELETE', '/api/channel/1/'],
    ['DELETE', '/api/channel/disabled'],
    ['GET', '/api/models'],
    ['GET', '/api/channel/models'],
  ];

  it.each(routes)(
    '%s %s: 401 without login, 403 for a normal user, allowed for an admin',
    async (method, url, payload) => {
      const inject = (headers: Record<string, string>) =>
        test.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
      expect((await inject({})).statusCode).toBe(401);
      const user = await createUserSession(test, { role: Role.common });
      const refused = await inject(user.headers);
      expect(refused.statusCode).toBe(403);
      expect(envelope(refused).success).toBe(false);
      const admin = await createUserSession(test, { role: Role.admin });
      expect((await inject(admin.headers)).statusCode).toBe(200);
    },
  );

  it('a normal user cannot create a channel: nothing is stored', async () => {
    const user = await createUserSession(test, { role: Role.common });
    await channelApi(test, user).create(channelForm());
    const count = await test.context.db
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });
});

describe('validation', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['no name', { name: '' }, 'please fill in channel name and channel key'],
    ['blank name', { name: '   ' }, 'please fill in channel name and channel key'],
    ['no key', { key: '' }, 'please fill in channel name and channel key'],
    ['only blank key lines', { key: '\n  \n' }, 'please fill in channel name and channel key'],
    ['no models', { models: '' }, 'please select at least one model'],
    ['only commas as models', { models: ' , ,' }, 'please select at least one model'],
    ['mapping not JSON', { model_mapping: '{gpt-4: gpt-4o}' }, 'model mapping must be valid JSON'],
    ['mapping an array', { model_mapping: '["gpt-4"]' }, 'model mapping must be a JSON object'],
    ['mapping to a number', { model_mapping: '{"gpt-4": 4}' }, 'model mapping must be a JSON object'],
    ['config not JSON', { config: '{region:' }, 'config must be valid JSON'],
    ['config an array', { config: '[1]' }, 'config must be valid JSON'],
    ['no group', { group: ' , ' }, 'please select at least one group'],
    ['group with a space', { group: 'default,big spender' }, 'group names must not contain spaces'],
    ['ftp base URL', { base_url: 'ftp://example.com' }, 'base URL must be a valid http(s) URL'],
    ['base URL not a URL', { base_url: 'example dot com' }, 'base URL must be a valid http(s) URL'],
    ['fractional priority', { priority: 1.5 }, 'priority must be an integer'],
    ['text priority', { priority: 'high' }, 'priority must be an integer'],
    ['negative weight', { weight: -1 }, 'weight must be an integer of at least 0'],
    ['fractional weight', { weight: 0.5 }, 'weight must be an integer of at least 0'],
    ['unknown type', { type: 999 }, 'unknown channel type'],
    ['type as text', { type: 'openai' }, 'unknown channel type'],
    ['status 3 from the interface', { status: 3 }, 'status must be 1 (enabled) or 2 (disabled)'],
    ['custom channel without base URL', { type: 8, base_url: '' }, 'please fill in the base URL'],
    ['Azure without endpoint', { type: 3, base_url: '' }, 'please fill in the base URL'],
    ['name too long', { name: 'n'.repeat(129) }, 'channel name must be at most 128 characters'],
  ])('refuses %s on create and stores nothing', async (_label, overrides, message) => {
    const body = await api.create(channelForm(overrides));
    expect(body.success).toBe(false);
    expect(body.message).toContain(message);
    expect(await api.list()).toMatchObject({ success: true, data: [] });
  });

  it('accepts a Proxy (43) channel without models, and numeric text for numbers', async () => {
    const body = await api.create(
      channelForm({
        type: '43',
        models: '',
        base_url: 'https://proxy.example.com',
        priority: '5',
        weight: '2',
      }),
    );
    expect(body.success).toBe(true);
    const channel = (await api.get(body.data.ids[0]!)).data;
    expect(channel).toMatchObject({ type: 43, models: '', priority: 5, weight: 2 });
  });

  it('refuses the same things on edit and keeps the stored channel', async () => {
    const id = await api.createOne(channelForm({ name: 'keep-me' }));
    for (const [fields, message] of [
      [{ name: '' }, 'please fill in channel name and channel key'],
      [{ models: '' }, 'please select at least one model'],
      [{ model_mapping: 'not json' }, 'model mapping must be valid JSON'],
      [{ weight: -3 }, 'weight must be an integer of at least 0'],
      [{ status: 7 }, 'status must be 1 (enabled) or 2 (disabled)'],
      [{ key: 'one\ntwo' }, 'one key per line is only for creating channels'],
    ] as const) {
      const body = await api.update({ id, ...fields });
      expect(body.success).toBe(false);
      expect(body.message).toContain(message);
    }
    expect((await api.get(id)).data).toMatchObject({
      name: 'keep-me',
      models: 'gpt-4o,gpt-4o-mini',
      weight: 0,
    });
    expect(await api.update({ id: 424242, priority: 1 })).toMatchObject({
      success: false,
      message: 'Channel not found',
    });
    expect(await api.get(424242)).toMatchObject({ success: false, message: 'Channel not found' });
    expect(await api.get(Number.NaN)).toMatchObject({ success: false });
  });

  it('normalises lists and base URLs: trims, de-duplicates, removes trailing slashes', async () => {
    const id = await api.createOne(
      channelForm({
        models: ' gpt-4o , gpt-4o,,o3 ',
        group: 'default, vip ,default',
        base_url: 'https://api.example.com/v1///',
      }),
    );
    expect((await api.get(id)).data).toMatchObject({
      models: 'gpt-4o,o3',
      group: 'default,vip',
      base_url: 'https://api.example.com/v1',
    });
  });
});

describe('batch create', () => {
  it('makes one channel per non-empty key line, with the same fields', async () => {
    const body = await api.create(channelForm({ name: 'pool', key: 'sk-a\n\n  sk-b  \r\nsk-c\n' }));
    expect(body).toMatchObject({ success: true, message: '3 channels created successfully!' });
    expect(body.data.ids).toHaveLength(3);
    const rows = await test.context.db.selectFrom('channels').selectAll().orderBy('id').execute();
    expect(rows.map((row) => row.key)).toEqual(['sk-a', 'sk-b', 'sk-c']);
    expect(new Set(rows.map((row) => `${row.name}|${row.models}|${row.group}`))).toEqual(
      new Set(['pool|gpt-4o,gpt-4o-mini|default']),
    );
    const abilities = await test.context.db.selectFrom('abilities').selectAll().execute();
    expect(abilities).toHaveLength(3 * 2);
  });

  it('a batch of thousands of keys is created and audited, as is deleting them all when disabled', async () => {
    // Enough rows that one INSERT of all their audit entries passes SQLite's bound-parameter limit.
    const count = 4000;
    const keys = Array.from({ length: count }, (_, index) => `sk-pool-${index}`).join('\n');
    const created = await api.create(channelForm({ name: 'pool', key: keys, status: 2 }));
    expect(created).toMatchObject({ success: true, message: `${count} channels created successfully!` });
    expect(await api.removeDisabled()).toMatchObject({ success: true, data: count });
    const entries = await test.context.db
      .selectFrom('audit_log')
      .select((select) => ['action', select.fn.countAll<number>().as('count')])
      .groupBy('action')
      .orderBy('action')
      .execute();
    expect(entries.map((entry) => [entry.action, Number(entry.count)])).toEqual([
      ['channel.create', count],
      ['channel.delete', count],
    ]);
  });

  it('refuses a batch of more keys than one request creates, creating none', async () => {
    const keys = Array.from({ length: MAX_KEYS_PER_BATCH + 1 }, (_, index) => `sk-${index}`).join('\n');
    expect(await api.create(channelForm({ name: 'pool', key: keys }))).toMatchObject({
      success: false,
      message: channelMessages.tooManyKeys,
    });
    expect(await test.context.db.selectFrom('channels').select('id').execute()).toEqual([]);
  });

  it('a single line creates one channel', async () => {
    expect(await api.create(channelForm())).toMatchObject({
      success: true,
      message: 'Channel created successfully!',
    });
  });
});

describe('list and search', () => {
  it('pages newest first, 10 by default, and sorts by a column on request', async () => {
    for (let index = 0; index < 12; index += 1) {
      await api.createOne(channelForm({ name: `channel-${index}`, priority: index % 3 }));
    }
    const first = await api.list('p=0');
    expect(first.data).toHaveLength(10);
    expect(first.data[0]!.name).toBe('channel-11');
    expect((await api.list('p=1')).data.map((channel) => channel.name)).toEqual(['channel-1', 'channel-0']);
    expect((await api.list('p=0&size=5')).data).toHaveLength(5);
    const byPriority = (await api.list('order=priority&direction=desc&size=100')).data.map(
      (channel) => channel.priority,
    );
    expect(byPriority).toEqual([...byPriority].sort((a, b) => b - a));
    expect(byPriority[0]).toBe(2);
    const byName = (await api.list('order=name&direction=asc&size=3')).data.map((channel) => channel.name);
    expect(byName).toEqual(['channel-0', 'channel-1', 'channel-10']);
    expect((await api.list('order=key')).data[0]!.name).toBe('channel-11');
  });

  it('searches by id, name and base URL, never by key', async () => {
    const alpha = await api.createOne(channelForm({ name: 'alpha', key: 'sk-findme' }));
    await api.createOne(channelForm({ name: 'beta', type: 8, base_url: 'https://gateway.internal.example' }));
    const names = async (query: string) =>
      (await api.search(query)).data.map((channel) => channel.name).sort();
    expect(await names('keyword=alp')).toEqual(['alpha']);
    expect(await names('keyword=internal.example')).toEqual(['beta']);
    expect(await names(`keyword=${alpha}`)).toContain('alpha');
    expect(await names('keyword=sk-findme')).toEqual([]);
    expect(await names('keyword=100%25')).toEqual([]);
    expect(await names('keyword=')).toEqual(['alpha', 'beta']);
  });

  it('answers every match at once, or a page when asked', async () => {
    for (let index = 0; index < 12; index += 1) await api.createOne(channelForm({ name: `match-${index}` }));
    expect((await api.search('keyword=match')).data).toHaveLength(12);
    expect((await api.search('keyword=match&p=1')).data).toHaveLength(2);
  });
});

describe('delete', () => {
  it('deletes one channel, and all disabled ones with their count', async () => {
    const keep = await api.createOne(channelForm({ name: 'keep' }));
    const manual = await api.createOne(channelForm({ name: 'manual' }));
    const auto = await api.createOne(channelForm({ name: 'auto' }));
    const gone = await api.createOne(channelForm({ name: 'gone' }));
    await api.update({ id: manual, status: ChannelStatus.manuallyDisabled });
    await test.context.db
      .updateTable('channels')
      .set({ status: ChannelStatus.autoDisabled })
      .where('id', '=', auto)
      .execute();
    expect(await api.remove(gone)).toMatchObject({ success: true });
    expect(await api.remove(gone)).toMatchObject({ success: false, message: 'Channel not found' });
    expect(await api.removeDisabled()).toMatchObject({
      success: true,
      data: 2,
      message: 'deleted all disabled channels, 2 in total',
    });
    expect((await api.list()).data.map((channel) => channel.id)).toEqual([keep]);
    expect(await api.removeDisabled()).toMatchObject({ data: 0 });
  });
});

describe('known models', () => {
  it('GET /api/models maps every channel type to its model names', async () => {
    const body = envelope<Record<string, string[]>>(
      await test.app.inject({ url: '/api/models', headers: root.headers }),
    );
    expect(Object.keys(body.data).sort()).toEqual(channelTypes.map((type) => String(type.id)).sort());
    expect(body.data['1']).toContain('gpt-4o');
    expect(body.data['14']).toContain('claude-sonnet-4-20250514');
    expect(body.data['24']).toContain('gemini-2.5-flash');
    expect(body.data['36']).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(body.data['43']).toEqual([]);
    const empty = Object.entries(body.data)
      .filter(([, models]) => models.length === 0)
      .map(([type]) => type);
    expect(empty.sort()).toEqual(['34', '43']);
  });

  it('GET /api/channel/models lists each known model once as {id, object, owned_by}', async () => {
    const body = envelope<Array<{ id: string; object: string; owned_by: string }>>(
      await test.app.inject({ url: '/api/channel/models', headers: root.headers }),
    );
    const ids = body.data.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(body.data.find((model) => model.id === 'gpt-4o')).toEqual({
      id: 'gpt-4o',
      object: 'model',
      owned_by: 'OpenAI',
    });
    expect(body.data.find((model) => model.id === 'deepseek-chat')?.owned_by).toBe('DeepSeek');
  });
});
