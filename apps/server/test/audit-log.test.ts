import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelStatus, RedemptionStatus, Role, type AuditEntry } from '@gatehouse/shared';
import { pruneAuditLog } from '../src/audit/audit-pruning';
import { setChannelStatus } from '../src/channels/channel-status';
import { channelApi, channelForm } from './channels-helpers';
import { createTestApp, createUserSession, envelope, loginAs, type Session, type TestApp } from './test-app';

let test: TestApp;
let root: Session;
let admin: Session;

// Behind one trusted proxy the client's address is the one the proxy adds to X-Forwarded-For.
const CLIENT_IP = '203.0.113.7';

beforeEach(async () => {
  test = await createTestApp({ TRUST_PROXY: '1' });
  root = await loginAs(test, 'root', '123456');
  admin = await createUserSession(test, { role: Role.admin });
});
afterEach(async () => {
  await test.close();
});

const withClientIp = (session: Session) => ({ ...session.headers, 'x-forwarded-for': CLIENT_IP });

async function call<T = unknown>(
  session: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return envelope<T>(await test.app.inject({ method, url, payload, headers: withClientIp(session) }));
}

async function audit(query = '', session = root): Promise<AuditEntry[]> {
  const body = await call<AuditEntry[]>(session, 'GET', `/api/audit?size=100${query ? `&${query}` : ''}`);
  expect(body.message).toBe('');
  return body.data;
}

/** The one entry written since `count` entries existed. */
async function onlyNewEntry(count: number): Promise<AuditEntry> {
  const entries = await audit();
  expect(entries).toHaveLength(count + 1);
  return entries[0]!;
}

const changeOf = (entry: AuditEntry, field: string) => entry.changes.find((change) => change.field === field);

describe('users', () => {
  it('records create, edit, role, status and delete, once each, with actor, address, target and diff', async () => {
    const created = await call<{ id: number }>(admin, 'POST', '/api/user/', {
      username: 'carol',
      password: 'first-password',
      display_name: 'Carol',
    });
    expect(created.success).toBe(true);
    const id = created.data.id;
    const createEntry = await onlyNewEntry(0);
    expect(createEntry).toMatchObject({
      actor_id: admin.user.id,
      actor_name: admin.user.username,
      ip: CLIENT_IP,
      action: 'user.create',
      target_type: 'user',
      target_id: String(id),
      target_name: 'carol',
    });
    expect(changeOf(createEntry, 'display_name')).toEqual({
      field: 'display_name',
      before: null,
      after: 'Carol',
    });
    expect(changeOf(createEntry, 'password')).toEqual({ field: 'password', masked: true });

    expect(
      (await call(admin, 'PUT', '/api/user/', { id, quota: 5000, password: 'second-password' })).success,
    ).toBe(true);
    const editEntry = await onlyNewEntry(1);
    expect(editEntry).toMatchObject({ action: 'user.update', target_id: String(id) });
    expect(editEntry.changes).toEqual([
      { field: 'quota', before: 0, after: 5000 },
      { field: 'password', masked: true },
    ]);

    expect(
      (await call(root, 'POST', '/api/user/manage', { username: 'carol', action: 'promote' })).success,
    ).toBe(true);
    const promoteEntry = await onlyNewEntry(2);
    expect(promoteEntry).toMatchObject({ action: 'user.promote', actor_name: 'root' });
    expect(promoteEntry.changes).toEqual([{ field: 'role', before: Role.common, after: Role.admin }]);

    expect(
      (await call(root, 'POST', '/api/user/manage', { username: 'carol', action: 'disable' })).success,
    ).toBe(true);
    const disableEntry = await onlyNewEntry(3);
    expect(disableEntry.action).toBe('user.disable');
    expect(changeOf(disableEntry, 'status')).toEqual({ field: 'status', before: 1, after: 2 });

    expect(
      (await call(root, 'POST', '/api/user/manage', { username: 'carol', action: 'delete' })).success,
    ).toBe(true);
    const deleteEntry = await onlyNewEntry(4);
    expect(deleteEntry).toMatchObject({ action: 'user.delete', target_id: String(id) });
    expect(changeOf(deleteEntry, 'username')).toEqual({ field: 'username', before: 'carol', after: null });

    const text = JSON.stringify(await audit());
    for (const secret of ['first-password', 'second-password', '$2']) expect(text).not.toContain(secret);
  });

  it("records root resetting a user's two-factor sign-in, and nothing when there was none", async () => {
    const bob = await createUserSession(test);
    const url = `/api/user/${bob.user.id}/2fa`;
    expect((await call(root, 'DELETE', url)).success).toBe(false);
    expect(await audit()).toEqual([]);
    // Enrolment itself is two-factor.test.ts's subject; here the user simply has it on.
    await test.context.db
      .insertInto('two_factor')
      .values({ user_id: bob.user.id, secret: 'sealed', is_enabled: 1, created_at: 1, enabled_at: 1 })
      .execute();
    await test.context.db
      .updateTable('users')
      .set({ two_factor_enabled: 1 })
      .where('id', '=', bob.user.id)
      .execute();
    expect((await call(root, 'DELETE', url)).success).toBe(true);
    expect(await onlyNewEntry(0)).toMatchObject({
      action: 'user.two_factor_reset',
      actor_name: 'root',
      ip: CLIENT_IP,
      target_id: String(bob.user.id),
      changes: [{ field: 'two_factor', before: 'on', after: 'off' }],
    });
  });

  it('records users changing their own password and access token, masked, and deleting their account', async () => {
    const dave = await createUserSession(test, { username: 'dave' });
    expect((await call(dave, 'PUT', '/api/user/self', { password: 'dave-new-password' })).success).toBe(true);
    expect(await onlyNewEntry(0)).toMatchObject({
      action: 'user.update',
      actor_name: 'dave',
      target_name: 'dave',
      changes: [{ field: 'password', masked: true }],
    });
    const fresh = await loginAs(test, 'dave', 'dave-new-password');
    const token = await call<string>(fresh, 'GET', '/api/user/token');
    expect(await onlyNewEntry(1)).toMatchObject({ changes: [{ field: 'access_token', masked: true }] });
    expect((await call(fresh, 'DELETE', '/api/user/self')).success).toBe(true);
    expect(await onlyNewEntry(2)).toMatchObject({ action: 'user.delete', actor_name: 'dave' });
    const text = JSON.stringify(await audit());
    for (const secret of [token.data, 'dave-new-password']) expect(text).not.toContain(secret);
  });

  it('writes nothing for a refused change or a form saved unchanged', async () => {
    const rootId = root.user.id;
    expect(
      (await call(admin, 'POST', '/api/user/manage', { username: 'root', action: 'disable' })).success,
    ).toBe(false);
    expect((await call(admin, 'PUT', '/api/user/', { id: rootId, quota: 1 })).success).toBe(false);
    expect(
      (await call(admin, 'POST', '/api/user/', { username: admin.user.username, password: 'password1' }))
        .success,
    ).toBe(false);
    expect(
      (await call(root, 'PUT', '/api/user/', { id: admin.user.id, quota: 0, group: admin.user.group }))
        .success,
    ).toBe(true);
    expect(await audit()).toEqual([]);
  });
});

describe('channels', () => {
  it('masks the key: the entry says it changed and its value appears nowhere in the answer', async () => {
    const api = channelApi(test, { ...admin, headers: withClientIp(admin) });
    const id = await api.createOne(channelForm({ key: 'sk-first-upstream-key' }));
    const createEntry = await onlyNewEntry(0);
    expect(createEntry).toMatchObject({ action: 'channel.create', target_id: String(id), ip: CLIENT_IP });
    expect(changeOf(createEntry, 'key')).toEqual({ field: 'key', masked: true });

    expect(
      (await api.update({ ...channelForm({ key: 'sk-second-upstream-key', name: 'renamed' }), id })).success,
    ).toBe(true);
    const editEntry = await onlyNewEntry(1);
    expect(editEntry.action).toBe('channel.update');
    expect(editEntry.changes).toEqual([
      { field: 'name', before: 'primary', after: 'renamed' },
      { field: 'key', masked: true },
    ]);

    const answer = (await test.app.inject({ url: '/api/audit', headers: root.headers })).body;
    expect(answer).not.toContain('sk-first-upstream-key');
    expect(answer).not.toContain('sk-second-upstream-key');
  });

  it('records enabling and disabling, the system disabling a channel, and deletions', async () => {
    const api = channelApi(test, { ...admin, headers: withClientIp(admin) });
    const id = await api.createOne(channelForm());
    expect((await api.update({ id, status: ChannelStatus.manuallyDisabled })).success).toBe(true);
    expect(await onlyNewEntry(1)).toMatchObject({
      action: 'channel.disable',
      actor_name: admin.user.username,
      changes: [{ field: 'status', before: 1, after: 2 }],
    });
    expect((await api.update({ id, status: ChannelStatus.enabled })).success).toBe(true);
    expect((await onlyNewEntry(2)).action).toBe('channel.enable');

    // channel health, nobody's request
    expect(await setChannelStatus(test.context, id, ChannelStatus.autoDisabled, 'the key was refused')).toBe(
      true,
    );
    expect(await onlyNewEntry(3)).toMatchObject({
      action: 'channel.disable',
      actor_id: 0,
      actor_name: 'system',
      ip: '',
      changes: [
        { field: 'status', before: 1, after: 3 },
        { field: 'reason', before: null, after: 'the key was refused' },
      ],
    });

    expect((await api.removeDisabled()).data).toBe(1);
    expect(await onlyNewEntry(4)).toMatchObject({ action: 'channel.delete', target_id: String(id) });
    expect((await api.remove(id)).success).toBe(false);
    expect((await api.update({ id: 999, name: 'x' })).success).toBe(false);
    expect(await audit()).toHaveLength(5);
  });
});

describe('options', () => {
  const put = (key: string, value: string) => call(root, 'PUT', '/api/option/', { key, value });

  it('masks secret options, shows prices model by model, refuses nothing silently', async () => {
    expect((await put('SMTPToken', 'smtp-password-value')).success).toBe(true);
    expect(await onlyNewEntry(0)).toMatchObject({
      action: 'option.update',
      target_type: 'option',
      target_id: 'SMTPToken',
      changes: [{ field: 'value', masked: true }],
    });

    expect((await put('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'old-model': 3 }))).success).toBe(true);
    expect((await put('ModelRatio', JSON.stringify({ 'gpt-4o': 2.5, 'new-model': 1 }))).success).toBe(true);
    expect((await onlyNewEntry(2)).changes).toEqual([
      { field: 'gpt-4o', before: 1.25, after: 2.5 },
      { field: 'old-model', before: 3, after: null },
      { field: 'new-model', before: null, after: 1 },
    ]);

    expect((await put('QuotaPerUnit', '0')).success).toBe(false);
    expect(await audit()).toHaveLength(3);
    expect(JSON.stringify(await audit())).not.toContain('smtp-password-value');
  });

  it('answers option entries to root only: admins cannot read options', async () => {
    expect((await put('SystemName', 'Acme gateway')).success).toBe(true);
    expect(await audit('', root)).toHaveLength(1);
    expect(await audit('', admin)).toEqual([]);
  });
});

describe('keys and redemption codes', () => {
  it('records a user changing its own key, never the key itself', async () => {
    const alice = await createUserSession(test);
    const created = await call<{ id: number; key: string }>(alice, 'POST', '/api/token/', {
      name: 'laptop',
      remain_quota: 100,
      expired_time: -1,
      unlimited_quota: false,
    });
    const keyId = created.data.id;
    expect(await onlyNewEntry(0)).toMatchObject({
      action: 'token.create',
      actor_name: alice.user.username,
      target_type: 'token',
      target_id: String(keyId),
    });
    expect((await call(alice, 'PUT', '/api/token/?status_only=true', { id: keyId, status: 2 })).success).toBe(
      true,
    );
    expect(await onlyNewEntry(1)).toMatchObject({
      action: 'token.disable',
      changes: [{ field: 'status', before: 1, after: 2 }],
    });
    expect((await call(alice, 'DELETE', `/api/token/${keyId}`)).success).toBe(true);
    expect((await onlyNewEntry(2)).action).toBe('token.delete');
    expect((await call(alice, 'DELETE', `/api/token/${keyId}`)).success).toBe(false);
    expect(await audit()).toHaveLength(3);
    expect(JSON.stringify(await audit())).not.toContain(created.data.key);
  });

  it('records each redemption code created, edited and deleted, masking the code', async () => {
    const keys = await call<string[]>(admin, 'POST', '/api/redemption/', {
      name: 'promo',
      quota: 100,
      count: 2,
    });
    const entries = await audit('action=redemption.create');
    expect(entries).toHaveLength(2);
    expect(changeOf(entries[0]!, 'key')).toEqual({ field: 'key', masked: true });
    const id = Number(entries[0]!.target_id);
    expect((await call(admin, 'PUT', '/api/redemption/', { id, name: 'promo', quota: 250 })).success).toBe(
      true,
    );
    expect(await onlyNewEntry(2)).toMatchObject({
      action: 'redemption.update',
      changes: [{ field: 'quota', before: 100, after: 250 }],
    });
    await test.context.db
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.used })
      .where('id', '=', id)
      .execute();
    expect((await call(admin, 'PUT', '/api/redemption/', { id, name: 'promo', quota: 1 })).success).toBe(
      false,
    );
    expect((await call(admin, 'DELETE', `/api/redemption/${id}`)).success).toBe(true);
    expect((await onlyNewEntry(3)).action).toBe('redemption.delete');
    const text = JSON.stringify(await audit());
    for (const key of keys.data) expect(text).not.toContain(key);
  });
});

describe('GET /api/audit', () => {
  it('answers 401 without a login and 403 to a normal user', async () => {
    expect((await test.app.inject({ url: '/api/audit' })).statusCode).toBe(401);
    const user = await createUserSession(test);
    const response = await test.app.inject({ url: '/api/audit', headers: user.headers });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ success: false });
  });

  it('filters by actor, action, target and time, and names a bad filter', async () => {
    const api = channelApi(test, admin);
    const first = await api.createOne(channelForm({ name: 'one' }));
    await api.createOne(channelForm({ name: 'two' }));
    await call(root, 'PUT', '/api/option/', { key: 'SystemName', value: 'Acme' });

    expect((await audit(`actor=${admin.user.username}`)).map((entry) => entry.target_name)).toEqual([
      'two',
      'one',
    ]);
    expect((await audit('actor=root')).map((entry) => entry.action)).toEqual(['option.update']);
    expect(await audit('action=channel.create')).toHaveLength(2);
    expect((await audit(`target_type=channel&target_id=${first}`)).map((entry) => entry.target_name)).toEqual(
      ['one'],
    );
    const now = Math.floor(Date.now() / 1000);
    expect(await audit(`start=${now - 60}&end=${now + 60}`)).toHaveLength(3);
    expect(await audit(`start=${now + 3600}`)).toEqual([]);
    expect(await call(root, 'GET', '/api/audit?size=2&p=1')).toMatchObject({
      success: true,
      data: [{ target_name: 'one' }],
    });

    for (const [query, message] of [
      ['action=user.fly', 'action must be one of the audit actions'],
      ['target_type=planet', 'target_type must be one of'],
      ['start=-5', 'start must not be negative'],
      ['p=x', 'p must be a whole number'],
    ]) {
      const body = await call(root, 'GET', `/api/audit?${query}`);
      expect(body.success).toBe(false);
      expect(body.message).toContain(message);
    }
  });
});

describe('pruning', () => {
  async function insertEntryDaysAgo(days: number) {
    await test.context.db
      .insertInto('audit_log')
      .values({
        created_at: Math.floor(Date.now() / 1000) - days * 86_400,
        actor_id: 0,
        actor_name: 'system',
        ip: '',
        action: 'channel.disable',
        target_type: 'channel',
        target_id: '1',
        target_name: '',
        changes: '[]',
      })
      .execute();
  }

  it('keeps everything at LogRetentionDays 0 and deletes only older entries otherwise', async () => {
    await insertEntryDaysAgo(400);
    await insertEntryDaysAgo(10);
    await insertEntryDaysAgo(0);
    expect(await pruneAuditLog(test.context)).toBe(0);
    expect(await audit()).toHaveLength(3);

    await test.context.options.set('LogRetentionDays', '30');
    expect(await pruneAuditLog(test.context)).toBe(1);
    expect(await audit()).toHaveLength(2);
  });
});
