import { isKnownChannelType } from '@gatehouse/shared';
import { rewriteAbilities } from '../channels/abilities';
import type { ImportContext, SourceProduct } from './import-context';
import { num, text } from './import-values';
import { countRows, readRows } from './one-api-source';

/** new-api numbered its channel types apart from one-api after 25; ours follow one-api. */
const NEW_API_TYPES: Record<number, number | null> = {
  2: null, // Midjourney
  4: 30, // Ollama
  5: null, // Midjourney Plus
  26: 16, // Zhipu v4 → Zhipu
  27: null, // Perplexity
  33: 33, // AWS
  34: 35, // Cohere
  35: 27, // MiniMax
  39: 37, // Cloudflare
  40: 44, // SiliconFlow
  41: 42, // Vertex AI
  42: 28, // Mistral
  43: 36, // DeepSeek
  45: 40, // VolcEngine → Doubao
  49: 34, // Coze
};

function mapChannelType(product: SourceProduct, type: number): number | null {
  let ours: number | null = type;
  if (product === 'new-api') {
    if (type in NEW_API_TYPES) ours = NEW_API_TYPES[type]!;
    else if (type > 25 && type !== 31) ours = null;
  }
  return ours !== null && isKnownChannelType(ours) ? ours : null;
}

/** Channels, and abilities rebuilt from them. */
export async function importChannels(ctx: ImportContext): Promise<void> {
  const { db, source, options, report, count, skip, channelIds, product } = ctx;
  await options.onTable?.('channels');
  const newApiExtras = ['setting', 'settings', 'param_override', 'header_override', 'status_code_mapping'];
  for (const channel of await readRows(source, 'channels', true)) {
    count('channels').read += 1;
    const label = `#${channel.id} ${text(channel.name)}`;
    const type = mapChannelType(product, num(channel.type));
    if (type === null) {
      skip('channels', `${label}: ${product} channel type ${channel.type} has no counterpart here`);
      continue;
    }
    const twin = await db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', text(channel.name).slice(0, 128))
      .where('type', '=', type)
      .where('base_url', '=', text(channel.base_url))
      .where('key', '=', text(channel.key))
      .executeTakeFirst();
    if (twin) {
      skip('channels', `${label}: channel #${twin.id} here has the same name, type, base URL and key`);
      continue;
    }
    const extras = newApiExtras.filter(
      (column) => text(channel[column]) !== '' && text(channel[column]) !== '{}',
    );
    if (extras.length > 0) report.notes.push(`channel ${label}: ${extras.join(', ')} not carried over`);
    const values = {
      type,
      key: text(channel.key),
      status: num(channel.status) || 1,
      name: text(channel.name).slice(0, 128),
      weight: num(channel.weight),
      created_time: num(channel.created_time),
      test_time: num(channel.test_time),
      response_time: num(channel.response_time),
      base_url: text(channel.base_url),
      other: text(channel.other),
      balance: num(channel.balance),
      balance_updated_time: num(channel.balance_updated_time),
      models: text(channel.models),
      group: text(channel.group) || 'default',
      used_quota: num(channel.used_quota),
      model_mapping: text(channel.model_mapping),
      priority: num(channel.priority),
      config: product === 'one-api' ? text(channel.config) : '',
    };
    await db.insertInto('channels').values(values).execute();
    const { id } = await db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', values.name)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    channelIds.set(num(channel.id), id);
    await rewriteAbilities(db, { id, ...values });
    count('channels').imported += 1;
  }
  count('abilities').read = await countRows(source, 'abilities');
  count('abilities').imported = Number(
    (
      await db
        .selectFrom('abilities')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('channel_id', 'in', channelIds.size > 0 ? [...channelIds.values()] : [-1])
        .executeTakeFirstOrThrow()
    ).n,
  );
}
