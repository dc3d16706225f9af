import { describe, expect, it } from 'vitest';
import { createUserSession, envelope, loginAs } from './test-app';
import { call, findRow, root, test, useUsersApp } from './support/users-app';

/** What a user does with its own account, and the groups an admin picks from. Admin management: users.test.ts. */
useUsersApp();

describe('self routes', () => {
  it('answers a stable invite code, creating one for a user without', async () => {
    const member = await createUserSession(test);
    const first = envelope<string>(await call(member, 'GET', '/api/user/aff')).data;
    expect(first).toMatch(/^\w{8}$/);
    expect(envelope<string>(await call(member, 'GET', '/api/user/aff')).data).toBe(first);
    await test.context.db
      .updateTable('users')
      .set({ aff_code: '' })
      .where('id', '=', member.user.id)
      .execute();
    const fresh = envelope<string>(await call(member, 'GET', '/api/user/aff')).data;
    expect(fresh).toMatch(/^\w{8}$/);
    expect(envelope<string>(await call(member, 'GET', '/api/user/aff')).data).toBe(fresh);
  });

  it('deletes its own account, which then cannot log in', async () => {
    const member = await createUserSession(test, { username: 'quitter', password: 'password123' });
    const response = await call(member, 'DELETE', '/api/user/self');
    expect(envelope(response)).toMatchObject({ success: true, message: 'Account deleted!' });
    expect(await findRow('quitter')).toBeUndefined();
    await expect(loginAs(test, 'quitter', 'password123')).rejects.toThrow();
  });

  it('lists the models of enabled channels for the user’s groups', async () => {
    const { db } = test.context;
    const addChannel = async (group: string, models: string[], status: number, enabled = 1) => {
      const result = await db
        .insertInto('channels')
        .values({ key: `key-${group}-${status}`, name: group, group, models: models.join(','), status })
        .executeTakeFirstOrThrow();
      const channelId = Number(result.insertId);
      for (const model of models) {
        await db.insertInto('abilities').values({ group, model, channel_id: channelId, enabled }).execute();
      }
    };
    await addChannel('default', ['gpt-4o-mini', 'gpt-4o'], 1);
    await addChannel('vip', ['claude-3-opus', 'gpt-4o'], 1);
    await addChannel('vip', ['vip-disabled-channel'], 2);
    await addChannel('svip', ['svip-only'], 1);
    await addChannel('default', ['disabled-ability'], 1, 0);
    const vip = await createUserSession(test, { group: 'vip' });
    const models = envelope<Array<{ model: string }>>(await call(vip, 'GET', '/api/user/available_models'));
    expect(models.data).toEqual([{ model: 'claude-3-opus' }, { model: 'gpt-4o' }]);
    const both = await createUserSession(test, { group: 'default,svip' });
    const bothModels = envelope<Array<{ model: string }>>(
      await call(both, 'GET', '/api/user/available_models'),
    );
    expect(bothModels.data.map((entry) => entry.model)).toEqual(['gpt-4o', 'gpt-4o-mini', 'svip-only']);
  });
});

describe('GET /api/group/', () => {
  it('answers the groups of GroupRatio, then those in use, following option changes at once', async () => {
    await createUserSession(test, { group: 'team-a,vip' });
    await test.context.db.insertInto('channels').values({ key: 'k', group: 'edu' }).execute();
    expect(envelope<string[]>(await call(root, 'GET', '/api/group/')).data).toEqual([
      'default',
      'vip',
      'svip',
      'edu',
      'team-a',
    ]);
    await call(root, 'PUT', '/api/option/', { key: 'GroupRatio', value: '{"gold": 2, "default": 1}' });
    expect(envelope<string[]>(await call(root, 'GET', '/api/group/')).data).toEqual([
      'gold',
      'default',
      'edu',
      'team-a',
      'vip',
    ]);
  });
});
