import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelType } from '@gatehouse/shared';
import { createTestApp, loginAs, type TestApp } from './test-app';
import { channelApi, channelForm } from './channels-helpers';

let test: TestApp;
let api: ReturnType<typeof channelApi>;

beforeEach(async () => {
  test = await createTestApp();
  api = channelApi(test, await loginAs(test, 'root', '123456'));
});
afterEach(async () => {
  await test.close();
});

const countChannels = async () =>
  Number(
    (
      await test.context.db
        .selectFrom('channels')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n,
  );

describe('channel types whose vendor API cannot be called', () => {
  it.each([
    [
      ChannelType.palm,
      'chat-bison-001',
      'Google retired the PaLM API on 15 August 2024',
      'Google Gemini channel',
    ],
    [
      ChannelType.aiProxyLibrary,
      'gpt-4o-mini',
      'AI Proxy publishes no reference',
      '"proxy AI Proxy" channel',
    ],
  ])(
    'type %i: a new channel is refused, saying why and what to use, and nothing is stored',
    async (type, model, why, instead) => {
      const body = await api.create(channelForm({ type, models: model, other: '123456' }));
      expect(body.success).toBe(false);
      expect(body.message).toContain(why);
      expect(body.message).toContain(instead);
      expect(await countChannels()).toBe(0);
    },
  );

  it('refuses changing a channel to PaLM, but keeps a stored PaLM channel editable', async () => {
    const id = await api.createOne(channelForm());
    const changed = await api.update({
      id,
      ...channelForm({ type: ChannelType.palm, models: 'chat-bison-001' }),
    });
    expect(changed.success).toBe(false);
    expect((await api.get(id)).data.type).toBe(ChannelType.openai);

    await test.context.db
      .updateTable('channels')
      .set({ type: ChannelType.palm })
      .where('id', '=', id)
      .execute();
    const renamed = await api.update({
      id,
      ...channelForm({ type: ChannelType.palm, name: 'old palm', models: 'chat-bison-001' }),
    });
    expect(renamed.success).toBe(true);
    const moved = await api.update({
      id,
      ...channelForm({ type: ChannelType.gemini, models: 'gemini-2.5-flash' }),
    });
    expect(moved.success).toBe(true);
    expect((await api.get(id)).data.type).toBe(ChannelType.gemini);
  });
});
