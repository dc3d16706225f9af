import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { fail } from '../http/envelope';
import { ProviderError, callProvider } from './provider-request';

const siteverifySchema = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional().default([]),
});

const queryWithTurnstile = z.object({ turnstile: z.string().optional() }).loose();

/**
 * With TurnstileCheckEnabled, the request's `turnstile` query value must pass Cloudflare's siteverify
 * (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/): a form POST of secret,
 * response and remoteip answering `{success, "error-codes"}`. Tokens are single-use, so each is checked once.
 */
export async function verifyTurnstile(context: AppContext, request: FastifyRequest): Promise<void> {
  const { options, config } = context;
  if (!options.getBoolean('TurnstileCheckEnabled')) return;
  const parsed = queryWithTurnstile.safeParse(request.query);
  const token = parsed.success ? (parsed.data.turnstile ?? '').trim() : '';
  if (token === '') fail('Turnstile token is empty; please complete the human check');
  const secret = options.get('TurnstileSecretKey');
  if (secret === '') {
    request.log.error('TurnstileCheckEnabled is on but TurnstileSecretKey is empty');
    fail('The human check is not configured; please contact the administrator');
  }
  const answer = await callProvider('Turnstile', config.turnstileVerifyUrl, {
    form: { secret, response: token, remoteip: request.ip },
  }).catch((error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    request.log.error({ err: error }, 'Turnstile siteverify failed');
    return fail('The human check could not be completed right now; please retry later');
  });
  const result = siteverifySchema.safeParse(answer.body);
  if (!result.success) {
    request.log.error({ statusCode: answer.statusCode }, 'Turnstile siteverify answered an unexpected body');
    fail('The human check could not be completed right now; please retry later');
  }
  if (!result.data.success) {
    request.log.info({ errorCodes: result.data['error-codes'] }, 'Turnstile check refused');
    fail('Turnstile check failed, please refresh the page and retry!');
  }
}
