import type { TwoFactorChallenge, User } from '@gatehouse/shared';
import { api } from '../../api/client';

/** The first start creates root / 123456, and the console asks for a new password at once. */
export const DEFAULT_ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';

export interface LoginCredentials {
  username: string;
  password: string;
}

export interface RegisterPayload {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
  aff_code: string;
}

/** The user, or a challenge when the account has two-factor sign-in on (then /login/2fa asks for the code). */
export const login = (credentials: LoginCredentials) =>
  api.post<User | TwoFactorChallenge>('/api/user/login', credentials);

/** `turnstile` is the human-check token; empty while the check is off. */
export const register = (payload: RegisterPayload, turnstile = '') =>
  api.post<null>('/api/user/register', payload, { params: { turnstile } });

export const logout = () => api.get<null>('/api/user/logout');

export const sendVerificationCode = (email: string, turnstile = '') =>
  api.get<null>('/api/verification', { params: { email, turnstile } });
