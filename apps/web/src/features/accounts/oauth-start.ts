import { buildGitHubAuthorizeUrl, buildLarkAuthorizeUrl, type ServerStatus } from '@gatehouse/shared';
import { getOAuthState, getOidcAuthorizeUrl } from './accounts-api';
import { leaveFor } from './leave-for';

/** GitHub sign-in or binding: this window goes to GitHub's authorise page and comes back to /oauth/github. */
export async function startGitHubOAuth(status: ServerStatus): Promise<void> {
  const state = await getOAuthState();
  leaveFor(
    buildGitHubAuthorizeUrl(status.github_client_id, state, status.github_oauth_base_url || undefined),
  );
}

/**
 * Lark sign-in or binding in a new window, which comes back to /oauth/lark. The window is opened
 * while the click is still being handled, before the state arrives, so popup blockers let it through.
 */
export async function startLarkOAuth(status: ServerStatus): Promise<void> {
  const popup = window.open('', '_blank');
  try {
    const state = await getOAuthState();
    const url = buildLarkAuthorizeUrl(
      status.lark_client_id,
      status.server_address || window.location.origin,
      state,
    );
    if (!popup) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    // The third-party page must not be able to navigate this tab.
    popup.opener = null;
    popup.location.href = url;
  } catch (error) {
    popup?.close();
    throw error;
  }
}

/** OIDC sign-in or binding: this window goes to the provider's login page and comes back to /oauth/oidc. */
export async function startOidcOAuth(): Promise<void> {
  leaveFor(await getOidcAuthorizeUrl());
}
