import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useStoredUser } from '../api/session';

/** SPEC §2 guard: a stored user, else the login page, which sends the visitor back here afterwards. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const user = useStoredUser();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location }} />;
  return children;
}
