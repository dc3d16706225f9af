import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, type BuiltInPriceTable, type PriceList } from '@gatehouse/shared';
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
  // The option overrides gpt-image-1's built-in image input ratio (2) and prices its image output.
  await options.set('ImageInputRatio', JSON.stringify({ 'gpt-image-1': 3 }));
  await options.set('ImageOutputRatio', JSON.stringify({ 'gpt-image-1': 1.5 }));
  await kit.createChannel({ group: 'vip', models: 'house-model' });
  await kit.createChannel({
    group: 'default',
    models: 'house-model,gpt-4o,unpriced-model,gpt-4o-audio-preview,gpt-image-1',
  });
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
    expect(list.models.map((model) => model.model)).toEqual([
      'gpt-4o',
      'gpt-4o-audio-preview',
      'gpt-image-1',
      'house-model',
    ]);
    // Ratio 1 is $2 per million tokens; vip, the user's first group serving it, pays half.
    expect(list.models[3]).toEqual({
      model: 'house-model',
      group: 'vip',
      group_ratio: 0.5,
      model_ratio: 2,
      completion_ratio: 3,
      cache_read_ratio: 1,
      cache_write_ratio: 1,
      audio_input_ratio: 1,
      image_input_ratio: 1,
      audio_output_ratio: 1,
      image_output_ratio: 1,
      input_price: 2,
      output_price: 6,
      cache_read_price: 2,
      cache_write_price: 2,
      audio_input_price: 2,
      image_input_price: 2,
      audio_output_price: 6,
      image_output_price: 6,
      call_price: null,
    });
    const builtIn = defaultModelPrices['gpt-4o'];
    expect(list.models[0]).toMatchObject({
      group: 'default',
      model_ratio: builtIn.modelRatio,
      input_price: builtIn.modelRatio * 2,
    });
  });

  it('shows the audio and image ratios and their prices, built in or set by the options', async () => {
    const list = await priceList(member.headers);
    const byName = new Map(list.models.map((model) => [model.model, model]));
    // gpt-4o-audio-preview: $2.50 / $10 text; audio input 16 × ($40), audio output 8 × ($80) built in.
    expect(byName.get('gpt-4o-audio-preview')).toMatchObject({
      input_price: 2.5,
      output_price: 10,
      audio_input_ratio: 16,
      audio_output_ratio: 8,
      image_input_ratio: 1,
      audio_input_price: 40,
      audio_output_price: 80,
      image_input_price: 2.5,
    });
    // gpt-image-1: $5 / $40; ImageInputRatio 3 (over the built-in 2) → $15, ImageOutputRatio 1.5 → $60.
    expect(byName.get('gpt-image-1')).toMatchObject({
      input_price: 5,
      output_price: 40,
      image_input_ratio: 3,
      image_output_ratio: 1.5,
      image_input_price: 15,
      image_output_price: 60,
    });
  });

  it('prices in quota when the display is not in currency, and is for signed-in users only', async () => {
    await kit.test.context.options.set('DisplayInCurrencyEnabled', 'false');
    try {
      const list = await priceList(member.headers);
      expect(list.display_in_currency).toBe(false);
      expect(list.models[3].input_price).toBe(1_000_000);
    } finally {
      await kit.test.context.options.set('DisplayInCurrencyEnabled', 'true');
    }
    expect((await kit.test.app.inject({ url: '/api/pricing' })).statusCode).toBe(401);
  });
});

describe('GET /api/pricing/built-in, audio and image ratios', () => {
  it('has each built-in media ratio, the one charged now and the media option that overrides it', async () => {
    const admin = await createUserSession(kit.test, { role: Role.admin });
    const body = envelope<BuiltInPriceTable>(
      await kit.test.app.inject({ url: '/api/pricing/built-in', headers: admin.headers }),
    );
    const rows = new Map(body.data.models.map((row) => [row.model, row]));
    expect(rows.get('gpt-4o-audio-preview')).toMatchObject({
      built_in: { audio_input_ratio: 16, audio_output_ratio: 8, image_input_ratio: 1, image_output_ratio: 1 },
      overridden_by: [],
    });
    expect(rows.get('gpt-image-1')).toMatchObject({
      built_in: { image_input_ratio: 2, image_output_ratio: 1 },
      effective: { image_input_ratio: 3, image_output_ratio: 1.5, audio_input_ratio: 1 },
      overridden_by: ['ImageInputRatio', 'ImageOutputRatio'],
    });
  });
});
