import type { FastifyInstance } from 'fastify';
import { optionUpdateRequestSchema, type OptionEntry } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards } from '../http/auth';
import { ok } from '../http/envelope';
import { parseWith } from '../http/validate';
import { auditActorOf } from '../audit/audit-actor';
import { recordAudit } from '../audit/audit-log';
import { optionChanges } from '../audit/audit-subjects';
import { isSecretOption } from './option-defaults';
import { registerConfigFileRoutes } from '../config-file/config-file-routes';
import { registerReleaseRoutes } from './release-routes';
import { validateOption } from './validate-option';

/** System options: root only. Secrets are write-only; a saved value takes effect at once (one OptionStore). */
export function registerOptionRoutes(app: FastifyInstance, context: AppContext): void {
  const { options } = context;
  const { root } = createGuards(context);

  app.get('/api/option/', { preHandler: root }, async () => {
    const entries: OptionEntry[] = options
      .entries()
      .filter(([key]) => !isSecretOption(key))
      .map(([key, value]) => ({ key, value }));
    return ok(entries);
  });

  app.put('/api/option/', { preHandler: root }, async (request) => {
    const input = parseWith(optionUpdateRequestSchema, request.body);
    const [key, value] = validateOption(input.key, input.value, options);
    const before = options.get(key);
    await options.set(key, value);
    await recordAudit(context.db, auditActorOf(request), {
      action: 'option.update',
      target: { type: 'option', id: key, name: key },
      changes: optionChanges(key, before, value),
    });
    return ok(isSecretOption(key) ? undefined : { key, value });
  });

  registerReleaseRoutes(app, context);
  registerConfigFileRoutes(app, context);
}
