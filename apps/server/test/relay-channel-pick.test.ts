import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { ChannelStatus } from '@gatehouse/shared';
import { rewriteAbilities } from '../src/channels/abilities';
import { ChannelCache } from '../src/relay/channel-cache';
import { createTestApp, type TestApp } from './test-app';

let test: TestApp;
let cache: ChannelCache;
const log = { error: () => undefined } as unknown as FastifyBaseLogger;

beforeEach(async () => {
  test = await createTestApp();
  cache = new ChannelCache(test.context.db, log);
});
afterEach(async () => {
  await test.close();
});

async function addChannel(options: {
  priority?: number;
  weight?: number;
  status?: number;
  group?: string;
  models?: string;
}) {
  const values = {
    type: 1,
    key: 'sk-x',
    name: 'c',
    status: options.status ?? ChannelStatus.enabled,
    models: options.models ?? 'gpt-4o',
    group: options.group ?? 'default',
    priority: options.priority ?? 0,
    weight: options.weight ?? 0,
    model_mapping: '{"gpt-4o":"gpt-4o-2024-11-20","bad":5}',
  };
  const result = await test.context.db.insertInto('channels').values(values).executeTakeFirstOrThrow();
  const id = Number(result.insertId);
  await rewriteAbilities(test.context.db, { id, ...values });
  return id;
}

/** How often each channel is picked over `draws` evenly spread random numbers. */
function tally(excluded: number[] = [], draws = 1000): Map<number, number> {
  const counts = new Map<number, number>();
  for (let draw = 0; draw < draws; draw += 1) {
    const channel = cache.pick('default', 'gpt-4o', new Set(excluded), () => (draw + 0.5) / draws);
    if (channel) counts.set(channel.id, (counts.get(channel.id) ?? 0) + 1);
  }
  return counts;
}

describe('channel pick', () => {
  it('picks within the highest priority, in proportion to weight (0 counting as 1)', async () => {
    const heavy = await addChannel({ priority: 10, weight: 3 });
    const light = await addChannel({ priority: 10, weight: 0 });
    const low = await addChannel({ priority: 1, weight: 100 });
    await cache.reload();
    const counts = tally();
    expect(counts.get(heavy)).toBe(750);
    expect(counts.get(light)).toBe(250);
    expect(counts.has(low)).toBe(false);
  });

  it('goes to a lower priority only when the higher ones are all excluded', async () => {
    const first = await addChannel({ priority: 5 });
    const second = await addChannel({ priority: 5 });
    const low = await addChannel({ priority: -1 });
    await cache.reload();
    expect([...tally([first]).keys()]).toEqual([second]);
    expect([...tally([first, second]).keys()]).toEqual([low]);
    expect(cache.pick('default', 'gpt-4o', new Set([first, second, low]))).toBeNull();
  });

  it('leaves out disabled channels and other groups, and follows changes on reload', async () => {
    const id = await addChannel({});
    await addChannel({ status: ChannelStatus.manuallyDisabled });
    await addChannel({ group: 'vip', models: 'gpt-4o,o3' });
    await cache.reload();
    expect([...tally().keys()]).toEqual([id]);
    expect(cache.pick('default', 'o3', new Set())).toBeNull();
    expect(cache.pick('vip', 'o3', new Set())).not.toBeNull();
    expect([...cache.listModels(['default', 'vip']).keys()].sort()).toEqual(['gpt-4o', 'o3']);
    await test.context.db.updateTable('abilities').set({ enabled: 0 }).where('channel_id', '=', id).execute();
    await cache.reload();
    expect(cache.pick('default', 'gpt-4o', new Set())).toBeNull();
  });

  it('parses the model mapping once, keeping only string targets', async () => {
    await addChannel({});
    await cache.reload();
    const channel = cache.pick('default', 'gpt-4o', new Set());
    expect(channel?.modelMapping).toEqual(new Map([['gpt-4o', 'gpt-4o-2024-11-20']]));
  });
});
