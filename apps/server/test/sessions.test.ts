import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, type UserSession } from '@gatehouse/shared';
import {
  createTestApp,
  createUserSession,
  envelope,
  loginAs,
  sessionCookie,
  type Session,
  type TestApp,
} from './test-app';

let test: TestApp;
let root: Session;

beforeAll(async () => {
  test = await createTestApp();
  root = await createUserSession(test, { role: Role.root });
});
afterAll(async () => {
  await test.close();
});

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

/** A user signed in `count` times, as from several devices. */
async function signInTimes(count: number): Promise<Session[]> {
  const first = await createUserSession(test);
  const sessions = [first];
  for (let index = 1; index < count; index += 1) {
    sessions.push(await loginAs(test, first.user.username, 'password123'));
  }
  return sessions;
}

async function statusOf(session: Session): Promise<number> {
  return (await test.app.inject({ url: '/api/user/self', headers: session.headers })).statusCode;
}

async function listOf(session: Session): Promise<UserSession[]> {
  const response = await test.app.inject({ url: '/api/user/sessions', headers: session.headers });
  expect(response.statusCode).toBe(200);
  return envelope<UserSession[]>(response).data;
}

describe('server-side sessions', () => {
  it('stores a session per sign-in, with device, address and times, and no usable token', async () => {
    const user = await createUserSession(test);
    const login = await test.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: user.user.username, password: 'password123' },
      headers: { 'user-agent': FIREFOX },
    });
    const firefox: Session = { user: user.user, headers: { cookie: sessionCookie(login) } };
    const sessions = await listOf(firefox);
    expect(sessions).toHaveLength(2);
    const current = sessions.find((session) => session.is_current);
    expect(current).toMatchObject({ user_agent: FIREFOX, ip: '127.0.0.1' });
    expect(current!.expires_at - current!.created_at).toBe(30 * 24 * 3600);
    expect(sessions.filter((session) => session.is_current)).toHaveLength(1);
    // The cookie's token is not what the database keeps.
    const token = decodeURIComponent(firefox.headers.cookie!.split('=')[1]!).split('.')[0]!;
    const row = await test.context.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', token)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('ends the session at logout: the same cookie afterwards answers 401', async () => {
    const [session, other] = await signInTimes(2);
    expect(await statusOf(session!)).toBe(200);
    const logout = await test.app.inject({ url: '/api/user/logout', headers: session!.headers });
    expect(envelope(logout).success).toBe(true);
    expect(await statusOf(session!)).toBe(401);
    expect(await statusOf(other!)).toBe(200);
  });

  it('signs out one other session, and only the own ones', async () => {
    const [laptop, phone] = await signInTimes(2);
    const phoneId = (await listOf(phone!)).find((session) => session.is_current)!.id;
    const stranger = await createUserSession(test);
    const refused = await test.app.inject({
      method: 'DELETE',
      url: `/api/user/sessions/${phoneId}`,
      headers: stranger.headers,
    });
    expect(envelope(refused)).toMatchObject({ success: false, message: 'No such session' });
    expect(await statusOf(phone!)).toBe(200);

    const ended = await test.app.inject({
      method: 'DELETE',
      url: `/api/user/sessions/${phoneId}`,
      headers: laptop!.headers,
    });
    expect(envelope(ended).success).toBe(true);
    expect(await statusOf(phone!)).toBe(401);
    expect(await statusOf(laptop!)).toBe(200);
    expect((await listOf(laptop!)).map((session) => session.is_current)).toEqual([true]);
  });

  it('signs out everywhere else, keeping the session that asked', async () => {
    const [here, ...elsewhere] = await signInTimes(3);
    const response = await test.app.inject({
      method: 'DELETE',
      url: '/api/user/sessions',
      headers: here!.headers,
    });
    expect(envelope(response)).toMatchObject({ success: true, data: { ended: 2 } });
    for (const session of elsewhere) expect(await statusOf(session)).toBe(401);
    expect(await statusOf(here!)).toBe(200);
  });

  it('refuses signing out from another site', async () => {
    const [session] = await signInTimes(1);
    const response = await test.app.inject({
      method: 'DELETE',
      url: '/api/user/sessions',
      headers: { ...session!.headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('a password change ends the other sessions; the renewed cookie works', async () => {
    const [here, elsewhere] = await signInTimes(2);
    const response = await test.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      payload: { password: 'new-password-1' },
      headers: here!.headers,
    });
    expect(envelope(response).success).toBe(true);
    const renewed: Session = { user: here!.user, headers: { cookie: sessionCookie(response) } };
    expect(await statusOf(elsewhere!)).toBe(401);
    expect(await statusOf(here!)).toBe(401);
    expect(await statusOf(renewed)).toBe(200);
    expect(await listOf(renewed)).toHaveLength(1);
  });

  it('a role change or disabling by an admin ends all of the user’s sessions', async () => {
    for (const action of ['promote', 'disable'] as const) {
      const sessions = await signInTimes(2);
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/user/manage',
        payload: { username: sessions[0]!.user.username, action },
        headers: root.headers,
      });
      expect(envelope(response).success, action).toBe(true);
      for (const session of sessions) expect(await statusOf(session), action).toBe(401);
      const rows = await test.context.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', sessions[0]!.user.id)
        .execute();
      // the ended sessions' rows go as their cookies are refused
      expect(rows, action).toEqual([]);
    }
  });

  it('writes last seen at most once a minute', async () => {
    const [session] = await signInTimes(1);
    const { id } = (await listOf(session!))[0]!;
    const setLastSeen = (secondsAgo: number) =>
      test.context.db
        .updateTable('sessions')
        .set({ last_seen_at: Math.floor(Date.now() / 1000) - secondsAgo })
        .where('id', '=', id)
        .execute();
    const lastSeen = async () =>
      (
        await test.context.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;

    await setLastSeen(30);
    const before = await lastSeen();
    await statusOf(session!);
    expect(await lastSeen()).toBe(before);

    await setLastSeen(61);
    await statusOf(session!);
    expect(Math.floor(Date.now() / 1000) - (await lastSeen())).toBeLessThan(5);
  });

  it('refuses an expired session', async () => {
    const [session] = await signInTimes(1);
    await test.context.db
      .updateTable('sessions')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('user_id', '=', session!.user.id)
      .execute();
    expect(await statusOf(session!)).toBe(401);
  });
});
