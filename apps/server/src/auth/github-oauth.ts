import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { fail } from '../http/envelope';
import type { ExternalIdentity } from './external-sign-in';
import { ProviderError, callProvider } from './provider-request';

// https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps: a bad code still
// answers HTTP 200, with `error` and `error_description` instead of `access_token`.
const tokenAnswerSchema = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

// https://docs.github.com/en/rest/users/users#get-the-authenticated-user
const githubUserSchema = z.object({
  id: z.number(),
  login: z.string().min(1),
  name: z.string().nullish(),
});

/** Exchanges a GitHub OAuth code for the GitHub account behind it. */
export async function fetchGitHubIdentity(
  context: AppContext,
  code: string,
  log: FastifyBaseLogger,
): Promise<ExternalIdentity> {
  const { config, options } = context;
  const unreachable = (error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    log.error({ err: error }, 'GitHub OAuth call failed');
    return fail('Could not reach GitHub; please retry later');
  };
  const tokenAnswer = await callProvider('GitHub', `${config.githubOAuthBaseUrl}/login/oauth/access_token`, {
    form: {
      client_id: options.get('GitHubClientId'),
      client_secret: options.get('GitHubClientSecret'),
      code,
    },
  }).catch(unreachable);
  const token = tokenAnswerSchema.safeParse(tokenAnswer.body);
  if (!token.success) {
    log.error({ statusCode: tokenAnswer.statusCode }, 'GitHub token exchange answered an unexpected body');
    fail('GitHub sign-in failed; please retry later');
  }
  if ('error' in token.data) {
    fail(`GitHub sign-in failed: ${token.data.error_description || token.data.error}`);
  }
  const userAnswer = await callProvider('GitHub', `${config.githubApiBaseUrl}/user`, {
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token.data.access_token}`,
      // GitHub's REST API refuses requests without a User-Agent.
      'user-agent': 'Gatehouse',
      'x-github-api-version': '2022-11-28',
    },
  }).catch(unreachable);
  const user = githubUserSchema.safeParse(userAnswer.body);
  if (userAnswer.statusCode !== 200 || !user.success) {
    log.error({ statusCode: userAnswer.statusCode }, 'GitHub user lookup failed');
    fail('GitHub sign-in failed: the GitHub account could not be read');
  }
  return {
    id: String(user.data.id),
    usernameBase: user.data.login,
    displayName: user.data.name || user.data.login,
  };
}
