import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@gatehouse/shared';
import { setChannelStatus } from '../src/channels/channel-status';
import { createTestApp, loginAs, type TestApp } from './test-app';
import { abilitiesOf, channelApi, channelForm } from './channels-helpers';

let test: TestApp;
let api: ReturnType<typeof channelApi>;
let changes: number;

beforeEach(async () => {
  test = await createTestApp();
  api = channelApi(test, await loginAs(test, 'root', '123456'));
  changes = 0;
  test.context.events.on('channelsChanged', () => {
    changes += 1;
  });
});
afterEach(async () => {
  await test.close();
});

const pick = (rows: Awaited<ReturnType<typeof abilitiesOf>>) =>
  rows.map((row) => `${row.group}/${row.model} enabled=${row.enabled} p=${row.priority} w=${row.weight}`);

describe('abilities follow the channel', () => {
  it('create writes one row per group × model with priority, weight and enabled', async () => {
    const id = await api.createOne(
      channelForm({ group: 'default,vip', models: 'gpt-4o,o3', priority: 5, weight: 3 }),
    );
    expect(pick(await abilitiesOf(test, id))).toEqual([
      'default/gpt-4o enabled=1 p=5 w=3',
      'default/o3 enabled=1 p=5 w=3',
      'vip/gpt-4o enabled=1 p=5 w=3',
      'vip/o3 enabled=1 p=5 w=3',
    ]);
    expect(changes).toBe(1);
  });

  it('a disabled channel created from the form has disabled abilities', async () => {
    const id = await api.createOne(channelForm({ status: ChannelStatus.manuallyDisabled }));
    expect((await abilitiesOf(test, id)).every((row) => row.enabled === 0)).toBe(true);
  });

  it('priority, weight and status updates from the list change the abilities too', async () => {
    const id = await api.createOne(channelForm({ group: 'default,vip', models: 'gpt-4o' }));
    const other = await api.createOne(channelForm({ name: 'untouched' }));
    const before = pick(await abilitiesOf(test, other));

    expect(await api.update({ id, priority: 9 })).toMatchObject({ success: true, data: { priority: 9 } });
    expect(pick(await abilitiesOf(test, id))).toEqual([
      'default/gpt-4o enabled=1 p=9 w=0',
      'vip/gpt-4o enabled=1 p=9 w=0',
    ]);

    await api.update({ id, weight: 4 });
    expect((await abilitiesOf(test, id)).map((row) => row.weight)).toEqual([4, 4]);

    await api.update({ id, status: ChannelStatus.manuallyDisabled });
    expect((await abilitiesOf(test, id)).map((row) => row.enabled)).toEqual([0, 0]);
    await api.update({ id, status: ChannelStatus.enabled });
    expect((await abilitiesOf(test, id)).map((row) => row.enabled)).toEqual([1, 1]);

    expect(pick(await abilitiesOf(test, other))).toEqual(before);
    expect((await api.get(id)).data).toMatchObject({ name: 'primary', priority: 9, weight: 4, status: 1 });
    expect(changes).toBe(2 + 4);
  });

  it('saving the form rewrites them: models and groups removed and added', async () => {
    const id = await api.createOne(channelForm({ group: 'default', models: 'gpt-4o,o3' }));
    await api.update({ ...channelForm({ group: 'vip', models: 'o3,gpt-5', priority: -2, weight: 7 }), id });
    expect(pick(await abilitiesOf(test, id))).toEqual([
      'vip/gpt-5 enabled=1 p=-2 w=7',
      'vip/o3 enabled=1 p=-2 w=7',
    ]);
  });

  it('saving the form keeps an auto-disabled channel disabled, abilities included', async () => {
    const id = await api.createOne(channelForm());
    await setChannelStatus(test.context, id, ChannelStatus.autoDisabled);
    await api.update({ ...channelForm({ name: 'edited' }), id });
    expect((await api.get(id)).data.status).toBe(ChannelStatus.autoDisabled);
    expect((await abilitiesOf(test, id)).every((row) => row.enabled === 0)).toBe(true);
  });

  it('a refused update leaves channel and abilities as they were', async () => {
    const id = await api.createOne(channelForm());
    const before = pick(await abilitiesOf(test, id));
    const eventsBefore = changes;
    await api.update({ ...channelForm({ models: 'x', model_mapping: '{bad' }), id });
    expect(pick(await abilitiesOf(test, id))).toEqual(before);
    expect(changes).toBe(eventsBefore);
  });

  it('delete removes them, one channel or all disabled ones', async () => {
    const one = await api.createOne(channelForm());
    const disabled = await api.createOne(channelForm({ status: ChannelStatus.manuallyDisabled }));
    const kept = await api.createOne(channelForm());
    await api.remove(one);
    expect(await abilitiesOf(test, one)).toEqual([]);
    await api.removeDisabled();
    expect(await abilitiesOf(test, disabled)).toEqual([]);
    expect(await abilitiesOf(test, kept)).toHaveLength(2);
  });

  it('a long model list is written completely', async () => {
    const models = Array.from({ length: 700 }, (_, index) => `model-${index}`).join(',');
    const id = await api.createOne(channelForm({ models, group: 'default,vip' }));
    expect(await abilitiesOf(test, id)).toHaveLength(1400);
  });
});

describe('setChannelStatus (channel health)', () => {
  it('auto-disables and re-enables a channel with its abilities, and says when the id is unknown', async () => {
    const id = await api.createOne(channelForm({ priority: 3 }));
    const eventsBefore = changes;
    expect(await setChannelStatus(test.context, id, ChannelStatus.autoDisabled)).toBe(true);
    expect((await api.get(id)).data.status).toBe(ChannelStatus.autoDisabled);
    expect((await abilitiesOf(test, id)).map((row) => [row.enabled, row.priority])).toEqual([
      [0, 3],
      [0, 3],
    ]);
    expect(await setChannelStatus(test.context, id, ChannelStatus.enabled)).toBe(true);
    expect((await abilitiesOf(test, id)).every((row) => row.enabled === 1)).toBe(true);
    expect(changes).toBe(eventsBefore + 2);
    expect(await setChannelStatus(test.context, 99999, ChannelStatus.enabled)).toBe(false);
    expect(changes).toBe(eventsBefore + 2);
  });
});
