import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isTwoFactorChallenge, type ServerStatus } from '@gatehouse/shared';
import { forgetUserQueries, setStoredUser } from '../../api/session';
import { showSuccess } from '../../api/toast';
import type { OAuthHandlers, OAuthProvider } from '../auth/oauth-buttons';
import { loginWithWeChat } from './accounts-api';
import { startGitHubOAuth, startLarkOAuth, startOidcOAuth } from './oauth-start';
import { WeChatCodeModal } from './wechat-code-modal';
import {
  TWO_FACTOR_LOGIN_PATH,
  type SignInResult,
  type TwoFactorLoginState,
} from '../two-factor/two-factor-api';

/**
 * Stores the user a sign-in returned and goes on; when the account has two-factor sign-in on, the answer is a
 * challenge instead, and the second step (/login/2fa) comes first.
 */
export function useCompleteLogin(): (user: SignInResult, destination: string) => void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (user, destination) => {
    if (isTwoFactorChallenge(user)) {
      const state: TwoFactorLoginState = { destination };
      void navigate(TWO_FACTOR_LOGIN_PATH, { replace: true, state });
      return;
    }
    forgetUserQueries(queryClient);
    setStoredUser(user);
    showSuccess(t('auth.login.success'));
    void navigate(destination, { replace: true });
  };
}

/** The login page's third-party buttons: GitHub and OIDC in this window, Lark in a new one, WeChat in a dialog. */
export function useOAuthLogin(status: ServerStatus | null): {
  handlers: OAuthHandlers;
  pending: OAuthProvider | null;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const completeLogin = useCompleteLogin();
  const [isWeChatOpen, setIsWeChatOpen] = useState(false);
  const redirect = useMutation({
    mutationFn: ({ provider, status }: { provider: 'github' | 'lark' | 'oidc'; status: ServerStatus }) =>
      provider === 'github'
        ? startGitHubOAuth(status)
        : provider === 'oidc'
          ? startOidcOAuth()
          : startLarkOAuth(status),
  });
  const wechat = useMutation({
    mutationFn: loginWithWeChat,
    // The chat-app login goes to the home page.
    onSuccess: (user) => completeLogin(user, '/'),
  });

  const handlers: OAuthHandlers = status
    ? {
        github: () => redirect.mutate({ provider: 'github', status }),
        lark: () => redirect.mutate({ provider: 'lark', status }),
        oidc: () => redirect.mutate({ provider: 'oidc', status }),
        wechat: () => setIsWeChatOpen(true),
      }
    : {};
  const provider = redirect.variables?.provider ?? null;
  // GitHub's and OIDC's buttons stay busy until the browser has left for the provider.
  const isLeaving = redirect.isPending || (redirect.isSuccess && provider !== 'lark');
  return {
    handlers,
    pending: isLeaving ? provider : null,
    dialog: (
      <WeChatCodeModal
        opened={isWeChatOpen}
        onClose={() => setIsWeChatOpen(false)}
        title={t('accounts.wechat.loginTitle')}
        submitLabel={t('accounts.wechat.login')}
        isPending={wechat.isPending}
        onSubmit={(code) => wechat.mutate(code)}
      />
    ),
  };
}
