import type { NewLogRow } from '../db/schema';
import { isOptionKey } from '../options/option-defaults';
import type { ImportContext } from './import-context';
import { flag, isDeleted, num, text } from './import-values';
import { countRows, readPages, readRows } from './one-api-source';

const LOG_CHUNK = 200;

/** Redemption codes. */
export async function importRedemptions(ctx: ImportContext): Promise<void> {
  const { db, source, options, count, skip, userIds } = ctx;
  await options.onTable?.('redemptions');
  const codes = new Set((await db.selectFrom('redemptions').select('key').execute()).map((row) => row.key));
  for (const code of await readRows(source, 'redemptions', true)) {
    count('redemptions').read += 1;
    const key = text(code.key);
    const label = `#${code.id} ${text(code.name)}`;
    if (isDeleted(code)) skip('redemptions', `${label}: deleted in the source`);
    else if (key === '' || key.length > 64) skip('redemptions', `${label}: the code is empty or too long`);
    else if (codes.has(key)) skip('redemptions', `${label}: the code exists here`);
    else {
      await db
        .insertInto('redemptions')
        .values({
          user_id: userIds.get(num(code.user_id)) ?? 0,
          key,
          status: num(code.status) || 1,
          name: text(code.name).slice(0, 64),
          quota: num(code.quota),
          created_time: num(code.created_time),
          redeemed_time: num(code.redeemed_time),
          used_user_id: userIds.get(num(code.used_user_id)) ?? 0,
        })
        .execute();
      codes.add(key);
      count('redemptions').imported += 1;
    }
  }
}

/** Options: name for name where ours has the option. */
export async function importOptions(ctx: ImportContext): Promise<void> {
  const { db, source, options, count, skip } = ctx;
  await options.onTable?.('options');
  for (const option of await readRows(source, 'options', false)) {
    count('options').read += 1;
    const key = text(option.key);
    if (!isOptionKey(key)) {
      skip('options', `${key}: no such option here`);
      continue;
    }
    const value = text(option.value);
    const updated = await db.updateTable('options').set({ value }).where('key', '=', key).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await db.insertInto('options').values({ key, value }).execute();
    count('options').imported += 1;
  }
}

/** Logs, only when asked for. */
export async function importLogs(ctx: ImportContext): Promise<void> {
  const { db, source, options, report, count, has, userIds, channelIds, layout } = ctx;
  if (options.withLogs && layout.has('logs')) {
    await options.onTable?.('logs');
    const elapsedInSeconds = has('logs', 'use_time') && !has('logs', 'elapsed_time');
    let batch: NewLogRow[] = [];
    const flush = async () => {
      if (batch.length > 0) await db.insertInto('logs').values(batch).execute();
      batch = [];
    };
    for await (const page of readPages(source, 'logs', 1000))
      for (const log of page) {
        count('logs').read += 1;
        batch.push({
          user_id: userIds.get(num(log.user_id)) ?? 0,
          created_at: num(log.created_at),
          type: num(log.type),
          content: text(log.content),
          username: text(log.username).slice(0, 64),
          token_name: text(log.token_name).slice(0, 64),
          model_name: text(log.model_name).slice(0, 255),
          quota: num(log.quota),
          prompt_tokens: num(log.prompt_tokens),
          completion_tokens: num(log.completion_tokens),
          channel_id: channelIds.get(num(log.channel_id ?? log.channel)) ?? 0,
          elapsed_time: elapsedInSeconds ? num(log.use_time) * 1000 : num(log.elapsed_time),
          is_stream: flag(log.is_stream),
          request_id: text(log.request_id).slice(0, 64),
        });
        count('logs').imported += 1;
        if (batch.length >= LOG_CHUNK) await flush();
      }
    await flush();
  } else if (layout.has('logs')) {
    // Read by the command line and the console alike: name both ways of asking for the logs.
    const left = await countRows(source, 'logs');
    report.notes.push(
      `logs: ${left} ${left === 1 ? 'row' : 'rows'} left in the source (copy them with --with-logs, or "Also copy the consumption logs" in the console)`,
    );
  }
}
