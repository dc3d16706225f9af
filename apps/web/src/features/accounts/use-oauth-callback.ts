import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { showSuccess } from '../../api/toast';
import { userKeys } from '../users/users-queries';
import { completeOAuth, type OAuthCallbackProvider } from './accounts-api';
import { useCompleteLogin } from './use-oauth-login';

/** The n-th retry waits 2 s × n. */
export const OAUTH_RETRY_DELAY_MS = 2000;
export const OAUTH_MAX_RETRIES = 3;

/**
 * Only a request that got no answer (network, gateway or server fault) may not have reached the server; any
 * answer means the one-time state and code are spent, so asking again could only fail.
 */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.kind === 'network' || (error.kind === 'http' && (error.status ?? 0) >= 500);
}

/**
 * The OAuth callback page: the message `bind` goes to /setting, a login stores the user and goes to /.
 * On failure the error is shown; when it cannot be retried ("counter 0") the page says it is redirecting and
 * goes to /setting (the guard sends visitors on to the login page); otherwise it says 'error occurred, retry N'
 * and asks again after 2 s × N, at most three times.
 */
export function useOAuthCallback(provider: OAuthCallbackProvider): string {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const completeLogin = useCompleteLogin();
  const [prompt, setPrompt] = useState(() => t('accounts.callback.processing'));
  const hasStarted = useRef(false);
  // The code works once, so the call is made once per page even though StrictMode mounts effects twice;
  // this flag (true while the page is on screen) stops a pending retry after the visitor has left.
  const isOnScreen = useRef(false);

  useEffect(() => {
    isOnScreen.current = true;
    return () => {
      isOnScreen.current = false;
    };
  }, []);

  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    const code = searchParams.get('code') ?? '';
    const state = searchParams.get('state') ?? '';

    async function run(attempt: number): Promise<void> {
      try {
        const result = await completeOAuth(provider, code, state);
        if (!isOnScreen.current) return;
        if (result.isBinding) {
          showSuccess(t('accounts.callback.bound', { provider: t(`auth.login.${provider}`) }));
          void queryClient.invalidateQueries({ queryKey: userKeys.self() });
          void navigate('/setting', { replace: true });
        } else {
          completeLogin(result.user, '/');
        }
      } catch (error) {
        if (!isOnScreen.current) return;
        if (attempt >= OAUTH_MAX_RETRIES || !isRetryable(error)) {
          setPrompt(t('accounts.callback.failed'));
          void navigate('/setting', { replace: true });
          return;
        }
        const retry = attempt + 1;
        setPrompt(t('accounts.callback.retrying', { attempt: retry }));
        await new Promise((resolve) => setTimeout(resolve, OAUTH_RETRY_DELAY_MS * retry));
        if (isOnScreen.current) await run(retry);
      }
    }
    void run(0);
  }, [provider, searchParams, navigate, queryClient, completeLogin, t]);

  return prompt;
}
