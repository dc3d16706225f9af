import type { FastifyInstance } from 'fastify';
import type { ServerStatus } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { ok } from '../http/envelope';
import { isOidcEnabled } from '../auth/oidc-sign-in';
import { VERSION } from './version';

const startTime = Math.floor(Date.now() / 1000);

export function buildServerStatus(context: AppContext): ServerStatus {
  const { options } = context;
  return {
    system_name: options.get('SystemName'),
    logo: options.get('Logo'),
    footer_html: options.get('Footer'),
    quota_per_unit: options.getNumber('QuotaPerUnit'),
    display_in_currency: options.getBoolean('DisplayInCurrencyEnabled'),
    display_token_stat: options.getBoolean('DisplayTokenStatEnabled'),
    chat_link: options.get('ChatLink'),
    top_up_link: options.get('TopUpLink'),
    server_address: options.get('ServerAddress'),
    version: VERSION,
    start_time: startTime,
    email_verification: options.getBoolean('EmailVerificationEnabled'),
    password_login: options.getBoolean('PasswordLoginEnabled'),
    password_register: options.getBoolean('PasswordRegisterEnabled'),
    register_enabled: options.getBoolean('RegisterEnabled'),
    turnstile_check: options.getBoolean('TurnstileCheckEnabled'),
    turnstile_site_key: options.get('TurnstileSiteKey'),
    github_oauth: options.getBoolean('GitHubOAuthEnabled'),
    github_client_id: options.get('GitHubClientId'),
    github_oauth_base_url: context.config.githubOAuthBaseUrl,
    wechat_login: options.getBoolean('WeChatAuthEnabled'),
    wechat_qrcode: options.get('WeChatAccountQRCodeImageURL'),
    lark_client_id: options.get('LarkClientId'),
    oidc: isOidcEnabled(context),
    oidc_provider_name: options.get('OidcProviderName') || 'OIDC',
    theme: options.get('Theme'),
    limits_degraded: context.auth.limitCounters.isDegraded ?? false,
  };
}

/** Public, unauthenticated reads of branding and content. */
export function registerStatusRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/api/status', async () => ok(buildServerStatus(context)));
  app.get('/api/notice', async () => ok(context.options.get('Notice')));
  app.get('/api/about', async () => ok(context.options.get('About')));
  app.get('/api/home_page_content', async () => ok(context.options.get('HomePageContent')));
}
