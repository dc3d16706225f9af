import { OAuthCallbackPage } from './oauth-callback-page';

export default function LarkCallbackPage() {
  return <OAuthCallbackPage provider="lark" />;
}
