import { describe, expect, it } from 'vitest';
import { LogType, Role, UserStatus, type ManageUserResult, type User } from '@gatehouse/shared';
import { createUserSession, envelope, loginAs, type Session } from './test-app';
import { call, findRow, root, test, useUsersApp } from './support/users-app';

useUsersApp();

const manage = (session: Session, username: string, action: string) =>
  call(session, 'POST', '/api/user/manage', { username, action });

const manageLogs = (userId: number) =>
  test.context.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', LogType.manage)
    .execute();

describe('GET /api/user/ and search', () => {
  it('pages newest first, sorts by quota, and never answers secrets', async () => {
    for (let index = 0; index < 12; index += 1) {
      await createUserSession(test, { username: `member${index}`, quota: index * 100 });
    }
    const first = envelope<User[]>(await call(root, 'GET', '/api/user/?p=0'));
    expect(first.data).toHaveLength(10);
    expect(first.data[0]?.username).toBe('member11');
    const second = envelope<User[]>(await call(root, 'GET', '/api/user/?p=1'));
    expect(second.data.map((user) => user.username)).toEqual(['member1', 'member0', 'root']);
    expect(JSON.stringify(first.data)).not.toMatch(/password|access_token/);

    const byQuota = envelope<User[]>(await call(root, 'GET', '/api/user/?p=0&order=quota&size=3'));
    expect(byQuota.data.map((user) => user.username)).toEqual(['root', 'member11', 'member10']);
    const bad = envelope(await call(root, 'GET', '/api/user/?order=password'));
    expect(bad).toMatchObject({ success: false, message: expect.stringContaining('Unknown order') });
  });

  it('finds by id, username, display name and e-mail, treating % literally', async () => {
    const alice = await createUserSession(test, { username: 'alice' });
    await test.context.db
      .updateTable('users')
      .set({ display_name: 'Wonder 100%', email: 'al@example.org' })
      .where('id', '=', alice.user.id)
      .execute();
    await createUserSession(test, { username: 'bob' });
    const names = async (keyword: string) =>
      envelope<User[]>(
        await call(root, 'GET', `/api/user/search?keyword=${encodeURIComponent(keyword)}`),
      ).data.map((user) => user.username);
    expect(await names(String(alice.user.id))).toContain('alice');
    expect(await names('lic')).toEqual(['alice']);
    expect(await names('100%')).toEqual(['alice']);
    expect(await names('0%')).toEqual(['alice']);
    expect(await names('example.org')).toEqual(['alice']);
    expect(await names('nobody')).toEqual([]);
  });
});

describe('GET /api/user/{id}', () => {
  it('lets an admin open users of lower role only; root opens itself', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const otherAdmin = await createUserSession(test, { role: Role.admin });
    const normal = await createUserSession(test);
    expect(envelope<User>(await call(admin, 'GET', `/api/user/${normal.user.id}`)).data.id).toBe(
      normal.user.id,
    );
    expect(envelope(await call(admin, 'GET', `/api/user/${otherAdmin.user.id}`))).toMatchObject({
      success: false,
      message: 'You can only view or edit users whose role is lower than yours',
    });
    expect(envelope(await call(admin, 'GET', `/api/user/${root.user.id}`)).success).toBe(false);
    expect(envelope<User>(await call(root, 'GET', `/api/user/${root.user.id}`)).data.username).toBe('root');
    expect(envelope<User>(await call(root, 'GET', `/api/user/${normal.user.id}/`)).data.id).toBe(
      normal.user.id,
    );
    expect(envelope(await call(root, 'GET', '/api/user/99999'))).toMatchObject({
      success: false,
      message: 'User does not exist',
    });
    expect((await call(root, 'GET', '/api/user/nonsense')).statusCode).toBe(404);
  });
});

describe('POST /api/user/ (add user)', () => {
  it('creates a user who can log in, with the registration rules', async () => {
    await test.context.options.set('QuotaForNewUser', '1234');
    const created = envelope<User>(
      await call(root, 'POST', '/api/user/', {
        username: 'carol',
        display_name: 'Carol',
        password: 'secret123',
      }),
    );
    expect(created).toMatchObject({ success: true, message: 'User account created successfully!' });
    expect(created.data).toMatchObject({
      username: 'carol',
      display_name: 'Carol',
      quota: 1234,
      role: Role.common,
    });
    expect((await loginAs(test, 'carol', 'secret123')).user.id).toBe(created.data.id);

    const duplicate = envelope(
      await call(root, 'POST', '/api/user/', { username: 'carol', password: 'secret123' }),
    );
    expect(duplicate).toMatchObject({ success: false, message: 'Username is already taken' });
    const short = envelope(await call(root, 'POST', '/api/user/', { username: 'dave', password: 'short' }));
    expect(short).toMatchObject({ success: false, message: 'Password length must not be less than 8!' });
    const blank = envelope(await call(root, 'POST', '/api/user/', { username: '  ', password: 'secret123' }));
    expect(blank).toMatchObject({ success: false, message: 'Username is required' });
    expect(await findRow('dave')).toBeUndefined();
  });
});

describe('PUT /api/user/ (admin edit)', () => {
  it('changes display name, quota and group, and logs the quota change', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const member = await createUserSession(test, { username: 'member', quota: 500000 });
    const response = envelope<User>(
      await call(admin, 'PUT', '/api/user/', {
        id: member.user.id,
        display_name: 'Member One',
        quota: '1000000',
        group: ' vip, default ,vip,',
        role: Role.root,
        password: '',
      }),
    );
    expect(response).toMatchObject({ success: true, message: 'User info updated successfully!' });
    expect(response.data).toMatchObject({
      display_name: 'Member One',
      quota: 1000000,
      group: 'vip,default',
      role: Role.common,
    });
    const logs = await manageLogs(member.user.id);
    expect(logs.map((log) => log.content)).toEqual([
      expect.stringMatching(/changed the quota from \$1\.00 to \$2\.00/),
    ]);
    // A blank password kept the old one and the session.
    expect((await call(member, 'GET', '/api/user/self')).statusCode).toBe(200);
  });

  it('refuses a negative or fractional quota and a bad group, changing nothing', async () => {
    const member = await createUserSession(test, { quota: 10 });
    for (const [payload, message] of [
      [{ quota: -1 }, 'Quota must not be negative'],
      [{ quota: 1.5 }, 'Quota must be a whole number'],
      [{ quota: '12abc' }, 'Quota must be a whole number'],
      [{ group: 'vip;drop' }, 'A group name may only contain letters, digits, "_", "-" and "."'],
    ] as const) {
      const body = envelope(await call(root, 'PUT', '/api/user/', { id: member.user.id, ...payload }));
      expect(body).toMatchObject({ success: false, message });
    }
    expect(await findRow(member.user.username)).toMatchObject({ quota: 10, group: 'default' });
  });

  it('a new password ends the user’s sessions and works for login', async () => {
    const member = await createUserSession(test, { username: 'changer' });
    const body = envelope(
      await call(root, 'PUT', '/api/user/', { id: member.user.id, password: 'brandnew1' }),
    );
    expect(body.success).toBe(true);
    expect((await call(member, 'GET', '/api/user/self')).statusCode).toBe(401);
    await loginAs(test, 'changer', 'brandnew1');
  });

  it('refuses an admin editing an admin or root; root edits itself and keeps its session', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const otherAdmin = await createUserSession(test, { role: Role.admin });
    for (const target of [otherAdmin.user.id, root.user.id, admin.user.id]) {
      const body = envelope(await call(admin, 'PUT', '/api/user/', { id: target, quota: 1 }));
      expect(body).toMatchObject({ success: false, message: expect.stringContaining('lower than yours') });
    }
    const rootEdit = await call(root, 'PUT', '/api/user/', { id: root.user.id, password: 'rootpass99' });
    expect(envelope(rootEdit).success).toBe(true);
    const renewed = rootEdit.cookies.find((cookie) => cookie.name === 'gatehouse_session');
    expect(renewed).toBeDefined();
    const self = await test.app.inject({
      url: '/api/user/self',
      headers: { cookie: `gatehouse_session=${renewed?.value}` },
    });
    expect(self.statusCode).toBe(200);
    await loginAs(test, 'root', 'rootpass99');
  });

  it('leaves a user promoted meanwhile as it was, and logs the balance the edit replaced', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const member = await createUserSession(test, {
      username: 'promoted',
      password: 'original-pass',
      quota: 500,
    });
    // The edit hashes its new password (tens of milliseconds); a change made 5 ms in lands while it does.
    const meanwhile = async (userId: number, change: { role?: number; quota?: number }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await test.context.db.updateTable('users').set(change).where('id', '=', userId).execute();
    };
    const edit = call(admin, 'PUT', '/api/user/', {
      id: member.user.id,
      password: 'taken-over1',
      quota: 900,
    });
    await meanwhile(member.user.id, { role: Role.admin });
    expect(envelope(await edit)).toMatchObject({ success: false, message: expect.stringContaining('lower') });
    await loginAs(test, 'promoted', 'original-pass');
    expect(Number((await findRow('promoted'))?.quota)).toBe(500);

    // So does a request's charge: the quota log names the balance the edit replaced.
    const spender = await createUserSession(test, { username: 'spender', quota: 1_000_000 });
    const editing = call(root, 'PUT', '/api/user/', {
      id: spender.user.id,
      password: 'spender-new1',
      quota: 5_000_000,
    });
    await meanwhile(spender.user.id, { quota: 990_000 });
    expect(envelope(await editing).success).toBe(true);
    expect(Number((await findRow('spender'))?.quota)).toBe(5_000_000);
    const [log] = await manageLogs(spender.user.id);
    expect(log?.content).toBe('Admin root changed the quota from $1.98 to $10.00');
  });
});

describe('POST /api/user/manage', () => {
  it('root promotes and demotes; an admin cannot promote', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const member = await createUserSession(test, { username: 'climber' });
    expect(envelope(await manage(admin, 'climber', 'promote'))).toMatchObject({
      success: false,
      message: 'Only the super admin can promote users to admin',
    });
    const promoted = envelope<ManageUserResult>(await manage(root, 'climber', 'promote'));
    expect(promoted).toMatchObject({ success: true, data: { role: Role.admin, status: UserStatus.enabled } });
    expect(envelope(await manage(root, 'climber', 'promote')).message).toBe('This user is already an admin');
    // Now an admin, the user is out of reach of another admin.
    expect(envelope(await manage(admin, 'climber', 'disable')).message).toBe(
      'You can only manage users whose role is lower than yours',
    );
    const demoted = envelope<ManageUserResult>(await manage(root, 'climber', 'demote'));
    expect(demoted.data.role).toBe(Role.common);
    expect(envelope(await manage(root, 'climber', 'demote')).message).toBe(
      'This user is already a normal user',
    );
    const contents = (await manageLogs(member.user.id)).map((log) => log.content);
    expect(contents).toEqual([
      'Admin root promoted the user to admin',
      'Admin root demoted the user to normal user',
    ]);
  });

  it('nobody promotes, demotes, disables or deletes root', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    for (const action of ['promote', 'demote', 'disable', 'delete']) {
      for (const actor of [root, admin]) {
        expect(envelope(await manage(actor, 'root', action))).toMatchObject({
          success: false,
          message: 'The super admin cannot be promoted, demoted, disabled or deleted',
        });
      }
    }
    expect(await findRow('root')).toMatchObject({ role: Role.root, status: UserStatus.enabled });
  });

  it('disabling ends sessions and the access token at once; enabling lets the user back in', async () => {
    const admin = await createUserSession(test, { role: Role.admin });
    const member = await createUserSession(test, { username: 'sleeper', password: 'password123' });
    const accessToken = envelope<string>(await call(member, 'GET', '/api/user/token')).data;
    const disabled = envelope<ManageUserResult>(await manage(admin, 'sleeper', 'disable'));
    expect(disabled.data).toEqual({ status: UserStatus.disabled, role: Role.common });
    expect((await call(member, 'GET', '/api/user/self')).statusCode).toBe(401);
    const byToken = await test.app.inject({ url: '/api/user/self', headers: { authorization: accessToken } });
    expect(byToken.statusCode).toBe(401);
    await expect(loginAs(test, 'sleeper', 'password123')).rejects.toThrow(/banned/);

    const enabled = envelope<ManageUserResult>(await manage(admin, 'sleeper', 'enable'));
    expect(enabled.data.status).toBe(UserStatus.enabled);
    const again = await loginAs(test, 'sleeper', 'password123');
    expect((await call(again, 'GET', '/api/user/self')).statusCode).toBe(200);
    // The old token stays void: the user generates a new one.
    expect(
      (await test.app.inject({ url: '/api/user/self', headers: { authorization: accessToken } })).statusCode,
    ).toBe(401);
  });

  it('deleting removes the user and its keys from lists and logins but keeps its logs', async () => {
    const member = await createUserSession(test, { username: 'leaver', password: 'password123' });
    await test.context.db
      .insertInto('tokens')
      .values({ user_id: member.user.id, key: 'leaverkey', name: 'k' })
      .execute();
    await test.context.db
      .insertInto('logs')
      .values({ user_id: member.user.id, username: 'leaver', type: LogType.consume, created_at: 1 })
      .execute();
    expect(envelope(await manage(root, 'leaver', 'delete')).success).toBe(true);
    expect(await findRow('leaver')).toBeUndefined();
    const tokens = await test.context.db
      .selectFrom('tokens')
      .selectAll()
      .where('key', '=', 'leaverkey')
      .execute();
    expect(tokens).toEqual([]);
    const logs = await test.context.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', member.user.id)
      .execute();
    expect(logs.map((log) => log.type).sort()).toEqual([LogType.consume, LogType.manage]);
    const list = envelope<User[]>(await call(root, 'GET', '/api/user/search?keyword=leaver'));
    expect(list.data).toEqual([]);
    expect((await call(member, 'GET', '/api/user/self')).statusCode).toBe(401);
    await expect(loginAs(test, 'leaver', 'password123')).rejects.toThrow();
    expect(envelope(await manage(root, 'leaver', 'enable')).message).toBe('User does not exist');
  });

  it('refuses an unknown action', async () => {
    await createUserSession(test, { username: 'someone' });
    const body = envelope(await manage(root, 'someone', 'explode'));
    expect(body).toMatchObject({ success: false, message: expect.stringContaining('Unknown action') });
  });
});
