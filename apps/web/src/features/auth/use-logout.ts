import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { clearStoredUser, forgetUserQueries } from '../../api/session';
import { showSuccess } from '../../api/toast';
import { logout } from './auth-api';

/** Logs out on the server, then forgets the user locally even if the server could not be reached. */
export function useLogout(): () => Promise<void> {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    let isLoggedOut = false;
    try {
      await logout();
      isLoggedOut = true;
    } catch {
      // The client has shown the error; the local session ends anyway because that is what the user asked for.
    }
    clearStoredUser();
    forgetUserQueries(queryClient);
    if (isLoggedOut) showSuccess(t('auth.logout.success'));
    void navigate('/login');
  };
}
