import { afterEach, beforeEach } from 'vitest';
import { createTestApp, loginAs, type Session, type TestApp } from '../test-app';

/**
 * The user routes' tests (users.test.ts, users-self.test.ts): a new gateway for each test, with root signed
 * in. A test file calls useUsersApp() at its top level; `test` and `root` are set before each test.
 */
export let test: TestApp;
export let root: Session;

/** Starts a gateway and signs root in before each test; closes the gateway after it. */
export function useUsersApp(): void {
  beforeEach(async () => {
    test = await createTestApp();
    root = await loginAs(test, 'root', '123456');
  });
  afterEach(async () => {
    await test.close();
  });
}

/** One request to the gateway as `session`. */
export const call = (
  session: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => test.app.inject({ method, url, payload, headers: session.headers });

/** A user's row as stored, or undefined when there is none. */
export const findRow = (username: string) =>
  test.context.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
