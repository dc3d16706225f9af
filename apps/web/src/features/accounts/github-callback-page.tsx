import { OAuthCallbackPage } from './oauth-callback-page';

export default function GitHubCallbackPage() {
  return <OAuthCallbackPage provider="github" />;
}
