import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceList } from '@gatehouse/shared';
import { defaultModelPrices } from '../src/billing/default-model-prices';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { createUserSession, envelope, type Session } from './test-app';

let kit: RelayKit;
let member: Session;

beforeAll(async () => {
  kit = await startRelayKit();
  const { options } = kit.test.context;
  await options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.5 }));
  await options.set('ModelRatio', JSON.stringify({ 'house-model': 2 }));
  await options.set('CompletionRatio', JSON.stringify({ 'house-model': 3 }));
  await kit.createChannel({ group: 'vip', models: 'house-model' });
  await kit.createChannel({ group: 'default', models: 'house-model,gpt-4o,unpriced-model' });
  await kit.createChannel({ group: 'partners', models: 'partner-model' });
  member = await createUserSession(kit.test, { group: 'vip,default' });
});
afterAll(async () => {
  await kit.close();
});

async function priceList(headers: Record<string, string>): Promise<PriceList> {
  const body = envelope<PriceList>(await kit.test.app.inject({ url: '/api/pricing', headers }));
  expect(body.success).toBe(true);
  return body.data;
}

describe('GET /api/pricing', () => {
  it("lists the models of the user's groups at the price the relay bills, per million tokens", async () => {
    const list = await priceList(member.headers);
    expect(list).toMatchObject({ display_in_currency: true, quota_per_unit: 500_000 });
    // Unpriced models (the relay refuses them) and other groups' models are left out.
    expect(list.models.map((model) => model.model)).toEqual(['gpt-4o', 'house-model']);
    // Ratio 1 is $2 per million tokens; vip, the user's first group serving it, pays half.
    expect(list.models[1]).toEqual({
      model: 'house-model',
      group: 'vip',
      group_ratio: 0.5,
      model_ratio: 2,
      completion_ratio: 3,
      cache_read_ratio: 1,
      cache_write_ratio: 1,
      input_price: 2,
      output_price: 6,
      cache_read_price: 2,
      cache_write_price: 2,
      call_price: null,
    });
    const builtIn = defaultModelPrices['gpt-4o'];
    expect(list.models[0]).toMatchObject({
      group: 'default',
      model_ratio: builtIn.modelRatio,
      input_price: builtIn.modelRatio * 2,
    });
  });

  it('prices in quota when the display is not in currency, and is for signed-in users only', async () => {
    await kit.test.context.options.set('DisplayInCurrencyEnabled', 'false');
    try {
      const list = await priceList(member.headers);
      expect(list.display_in_currency).toBe(false);
      expect(list.models[1].input_price).toBe(1_000_000);
    } finally {
      await kit.test.context.options.set('DisplayInCurrencyEnabled', 'true');
    }
    expect((await kit.test.app.inject({ url: '/api/pricing' })).statusCode).toBe(401);
  });
});
