import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { RecoveryCodes, TwoFactorEnrolment, TwoFactorStatus } from '@gatehouse/shared';
import { envelope, type Session, type TestApp } from '../test-app';

export const PASSWORD = 'password123';
export const WRONG_CODE = 'The code is wrong or has already been used';
export const SIGN_IN_EXPIRED = 'The sign-in has expired; please sign in again';

export interface Enrolled {
  totp: TOTP;
  recoveryCodes: string[];
  /** a code of the time step after the one the enrolment was confirmed with (that one is spent) */
  nextCode(): string;
}

/** The two-factor challenge cookie an answer sets, as a `cookie` header sends it back. */
export function challengeCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((candidate) => candidate.name === 'gatehouse_2fa');
  if (!cookie) throw new Error('no two-factor cookie in the response');
  return `${cookie.name}=${cookie.value}`;
}

/**
 * The steps of two-factor sign-in as the console takes them, against the gateway `currentTest()` answers: a
 * test file keeps its own `test` (some of its tests start a gateway of their own) and takes the steps from
 * twoFactorSteps(() => test).
 */
export function twoFactorSteps(currentTest: () => TestApp) {
  function post(url: string, headers: Record<string, string>, payload?: object) {
    return currentTest().app.inject({ method: 'POST', url, headers, payload });
  }

  /** Enrols the session's user the way the console does: start, read the secret, confirm with a code. */
  async function enrol(session: Session): Promise<Enrolled> {
    const start = envelope<TwoFactorEnrolment>(await post('/api/user/2fa/enroll', session.headers));
    expect(start.success).toBe(true);
    const totp = new TOTP({ secret: Secret.fromBase32(start.data.secret) });
    const confirmed = envelope<RecoveryCodes>(
      await post('/api/user/2fa/confirm', session.headers, { code: totp.generate() }),
    );
    expect(confirmed.success).toBe(true);
    return {
      totp,
      recoveryCodes: confirmed.data.recovery_codes,
      nextCode: () => totp.generate({ timestamp: Date.now() + 30_000 }),
    };
  }

  function passwordLogin(username: string, password = PASSWORD) {
    return currentTest().app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username, password },
    });
  }

  function secondStep(cookie: string, code: string) {
    return currentTest().app.inject({
      method: 'POST',
      url: '/api/user/login/2fa',
      headers: cookie ? { cookie } : {},
      payload: { code },
    });
  }

  /** The first step for a user with two-factor sign-in: no session, a challenge cookie. */
  async function startSignIn(username: string): Promise<string> {
    const response = await passwordLogin(username);
    expect(envelope(response)).toEqual({
      success: true,
      message: 'Enter the code from your authenticator app',
      data: { require_2fa: true },
    });
    expect(response.cookies.find((cookie) => cookie.name === 'gatehouse_session')).toBeUndefined();
    return challengeCookie(response);
  }

  function status(session: Session) {
    return currentTest()
      .app.inject({ url: '/api/user/2fa', headers: session.headers })
      .then((response) => envelope<TwoFactorStatus>(response).data);
  }

  return { post, enrol, passwordLogin, secondStep, startSignIn, status };
}
