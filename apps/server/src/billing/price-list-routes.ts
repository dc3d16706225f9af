import type { FastifyInstance } from 'fastify';
import { DEFAULT_QUOTA_PER_UNIT, type PricedModel, type PriceList } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { getRelayRuntime } from '../relay/relay-runtime';
import { splitGroups } from '../users/groups';
import { toPriceRatios } from './price-ratios-wire';
import { findModelRatios, getGroupRatio } from './pricing';

const MILLION = 1_000_000;

/**
 * GET /api/pricing — every model the signed-in user can call (an enabled channel in one of its groups serves it)
 * with its ratios and the price per million tokens of each kind (text, cache, audio, image), group ratio applied,
 * as the relay would bill it; a model
 * priced per call (ModelPrice) has its price per call too. Models without a price are left out: the relay
 * refuses them.
 */
export function registerPriceListRoutes(app: FastifyInstance, context: AppContext): void {
  const guards = createGuards(context);
  const runtime = getRelayRuntime(context, app.log);

  app.get('/api/pricing', { preHandler: guards.user }, async (request) => {
    const { options } = context;
    await runtime.channels.ready();
    const displayInCurrency = options.getBoolean('DisplayInCurrencyEnabled');
    const quotaPerUnit = options.getNumber('QuotaPerUnit') || DEFAULT_QUOTA_PER_UNIT;
    // Quota per million tokens at ratio 1, in the display unit.
    const unitPrice = displayInCurrency ? MILLION / quotaPerUnit : MILLION;
    // Quota per US dollar of a call price, in the display unit.
    const callUnit = displayInCurrency ? 1 : quotaPerUnit;
    const seen = new Set<string>();
    const models: PricedModel[] = [];
    // The relay bills the first of the user's groups that serves the model; so does the list.
    for (const group of splitGroups(currentUser(request).group)) {
      const groupRatio = getGroupRatio(options, group);
      for (const model of runtime.channels.listModels([group]).keys()) {
        if (seen.has(model)) continue;
        seen.add(model);
        const ratios = findModelRatios(options, model);
        if (!ratios) continue;
        const input = unitPrice * ratios.modelRatio * groupRatio;
        const output = input * ratios.completionRatio;
        models.push({
          model,
          group,
          group_ratio: groupRatio,
          ...toPriceRatios(ratios),
          input_price: input,
          output_price: output,
          cache_read_price: input * ratios.cacheReadRatio,
          cache_write_price: input * ratios.cacheWriteRatio,
          audio_input_price: input * ratios.audioInputRatio,
          image_input_price: input * ratios.imageInputRatio,
          audio_output_price: output * ratios.audioOutputRatio,
          image_output_price: output * ratios.imageOutputRatio,
          call_price: ratios.callPrice === undefined ? null : ratios.callPrice * groupRatio * callUnit,
        });
      }
    }
    models.sort((a, b) => a.model.localeCompare(b.model));
    const list: PriceList = { display_in_currency: displayInCurrency, quota_per_unit: quotaPerUnit, models };
    return ok(list);
  });
}
