// Where the e2e run's servers listen. Fixed ports, because the gateway reads GITHUB_OAUTH_BASE_URL when it
// starts; derived from E2E_PORT so two runs with different ports never share a stand-in.

/** The gateway under test (playwright.config.ts `webServer`). */
export const CONSOLE_PORT = Number(process.env.E2E_PORT ?? 3917);
export const CONSOLE_URL = `http://127.0.0.1:${CONSOLE_PORT}`;

/**
 * The stand-in process: fake GitHub (authorise page, token exchange, user API), WeChat server, mail catcher.
 * On 127.0.0.2 (loopback too), which the browser counts as another site than the console's 127.0.0.1, as
 * GitHub is: its redirect back to /oauth/github is a cross-site navigation, as in production.
 */
export const STAND_IN_HOST = '127.0.0.2';
export const STAND_IN_PORT = CONSOLE_PORT + 10_000;
export const STAND_IN_URL = `http://${STAND_IN_HOST}:${STAND_IN_PORT}`;

/** The OAuth app the fake GitHub knows; journeys enter the same values in System settings. */
export const E2E_GITHUB_APP = { clientId: 'Iv1.gatehouse-e2e', clientSecret: 'e2e-github-secret' } as const;

/** The login the mail catcher demands, entered as SMTPAccount / SMTPToken. */
export const E2E_SMTP_LOGIN = { account: 'mailer@gatehouse.test', password: 'e2e-smtp-token' } as const;

/** The token of the WeChat server stand-in, entered as WeChatServerToken. */
export const E2E_WECHAT_SERVER_TOKEN = 'e2e-wechat-server-token';
