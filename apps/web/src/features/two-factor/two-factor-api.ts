import { queryOptions } from '@tanstack/react-query';
import type {
  RecoveryCodes,
  TwoFactorChallenge,
  TwoFactorEnrolment,
  TwoFactorStatus,
  User,
} from '@gatehouse/shared';
import { api } from '../../api/client';

export const twoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['users', 'self', 'two-factor'],
    queryFn: () => api.get<TwoFactorStatus>('/api/user/2fa'),
  });

/** The second sign-in step; the server knows which sign-in it completes from its short-lived cookie. */
export const completeTwoFactorLogin = (code: string) =>
  api.post<User>('/api/user/login/2fa', { code }, { quiet: true });

export const startTwoFactorEnrolment = () => api.post<TwoFactorEnrolment>('/api/user/2fa/enroll');

export const confirmTwoFactor = (code: string) => api.post<RecoveryCodes>('/api/user/2fa/confirm', { code });

export const disableTwoFactor = (code: string, password: string) =>
  api.post<null>('/api/user/2fa/disable', { code, password });

export const renewRecoveryCodes = (code: string) =>
  api.post<RecoveryCodes>('/api/user/2fa/recovery_codes', { code });

/** Root only: for a user who lost the authenticator and the recovery codes. */
export const resetUserTwoFactor = (userId: number) => api.del<null>(`/api/user/${userId}/2fa`);

/** Where the login page sends the visitor when a sign-in answered that a second factor is needed. */
export const TWO_FACTOR_LOGIN_PATH = '/login/2fa';

export interface TwoFactorLoginState {
  /** where to go once signed in */
  destination: string;
}

export type SignInResult = User | TwoFactorChallenge;
