import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LOGIN_EXPIRED_PATH } from '../api/client';
import { hasSessionExpired, useStoredUser } from '../api/session';

/** Guard: a stored user, else the login page, which sends the visitor back here afterwards. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const user = useStoredUser();
  const location = useLocation();
  if (!user)
    return (
      <Navigate to={hasSessionExpired() ? LOGIN_EXPIRED_PATH : '/login'} replace state={{ from: location }} />
    );
  return children;
}
