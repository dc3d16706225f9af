import { OAuthCallbackPage } from './oauth-callback-page';

export default function OidcCallbackPage() {
  return <OAuthCallbackPage provider="oidc" />;
}
