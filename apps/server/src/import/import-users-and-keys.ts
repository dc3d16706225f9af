import { Role } from '@gatehouse/shared';
import { randomText } from '../auth/password';
import type { ImportContext } from './import-context';
import { allowIpsToSubnets, flag, isDeleted, num, text } from './import-values';
import { readRows } from './one-api-source';

/** Users; a user whose username is taken here is skipped (and its keys with it). */
export async function importUsers(ctx: ImportContext): Promise<void> {
  const { db, source, options, report, count, skip, now, userIds } = ctx;
  await options.onTable?.('users');
  const taken = await db
    .selectFrom('users')
    .select(['username', 'aff_code', 'access_token', 'role', 'github_id', 'wechat_id', 'lark_id', 'oidc_id'])
    .execute();
  const usernames = new Set(taken.map((row) => row.username));
  const affCodes = new Set(taken.map((row) => row.aff_code));
  const accessTokens = new Set(taken.map((row) => row.access_token).filter(Boolean));
  const identities: Record<'github_id' | 'wechat_id' | 'lark_id' | 'oidc_id', Set<string>> = {
    github_id: new Set(taken.map((row) => row.github_id).filter(Boolean)),
    wechat_id: new Set(taken.map((row) => row.wechat_id).filter(Boolean)),
    lark_id: new Set(taken.map((row) => row.lark_id).filter(Boolean)),
    oidc_id: new Set(taken.map((row) => row.oidc_id).filter(Boolean)),
  };
  let hasRoot = taken.some((row) => row.role >= Role.root);
  const users = await readRows(source, 'users', true);
  const inviters: Array<[string, number]> = [];
  for (const user of users) {
    count('users').read += 1;
    const username = text(user.username);
    if (isDeleted(user)) {
      skip('users', `#${user.id} ${username}: deleted in the source`);
      continue;
    }
    if (username === '' || text(user.password) === '') {
      skip('users', `#${user.id}: no username or password`);
      continue;
    }
    if (usernames.has(username)) {
      skip('users', `#${user.id} ${username}: the username is taken here (its keys are skipped too)`);
      continue;
    }
    let affCode = text(user.aff_code);
    if (affCode === '' || affCodes.has(affCode)) {
      const fresh = randomText(4);
      if (affCode !== '')
        report.notes.push(`user ${username}: invite code ${affCode} is taken here; new code ${fresh}`);
      affCode = fresh;
    }
    let accessToken: string | null = text(user.access_token) || null;
    if (accessToken && accessTokens.has(accessToken)) {
      report.notes.push(`user ${username}: the system access token is taken here and was not carried over`);
      accessToken = null;
    }
    let role = num(user.role) || Role.common;
    if (role >= Role.root && hasRoot) {
      report.notes.push(`user ${username}: root in the source, imported as admin (this server has its root)`);
      role = Role.admin;
    }
    if (role >= Role.root) hasRoot = true;
    const ids = { github_id: '', wechat_id: '', lark_id: '', oidc_id: '' };
    for (const column of Object.keys(ids) as Array<keyof typeof ids>) {
      const value = text(user[column]);
      if (value === '') continue;
      if (identities[column].has(value)) {
        report.notes.push(
          `user ${username}: ${column} ${value} is bound to another user here and was not carried over`,
        );
        continue;
      }
      identities[column].add(value);
      ids[column] = column === 'oidc_id' ? '' : value;
      if (column === 'oidc_id') {
        report.notes.push(`user ${username}: oidc_id not carried over (ours names the issuer as well)`);
      }
    }
    await db
      .insertInto('users')
      .values({
        username,
        password: text(user.password),
        display_name: text(user.display_name).slice(0, 64),
        role,
        status: num(user.status) || 1,
        email: text(user.email),
        ...ids,
        access_token: accessToken,
        quota: num(user.quota),
        used_quota: num(user.used_quota),
        request_count: num(user.request_count),
        group: text(user.group) || 'default',
        aff_code: affCode,
        inviter_id: 0,
        created_at: num(user.created_at) || now,
      })
      .execute();
    const { id } = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    userIds.set(num(user.id), id);
    usernames.add(username);
    affCodes.add(affCode);
    if (accessToken) accessTokens.add(accessToken);
    if (num(user.inviter_id) > 0) inviters.push([username, num(user.inviter_id)]);
    count('users').imported += 1;
  }
  for (const [username, inviter] of inviters) {
    const ours = userIds.get(inviter);
    if (ours)
      await db.updateTable('users').set({ inviter_id: ours }).where('username', '=', username).execute();
  }
}

/** API keys of the imported users. */
export async function importTokens(ctx: ImportContext): Promise<void> {
  const { db, source, options, report, count, skip, has, userIds } = ctx;
  await options.onTable?.('tokens');
  const keys = new Set((await db.selectFrom('tokens').select('key').execute()).map((row) => row.key));
  for (const token of await readRows(source, 'tokens', true)) {
    count('tokens').read += 1;
    const key = text(token.key).replace(/^sk-/, '');
    const label = `#${token.id} ${text(token.name)}`;
    const owner = userIds.get(num(token.user_id));
    if (isDeleted(token)) skip('tokens', `${label}: deleted in the source`);
    else if (!owner) skip('tokens', `${label}: its user #${token.user_id} was not imported`);
    else if (key === '' || key.length > 64)
      skip('tokens', `${label}: the key is empty or longer than 64 characters`);
    else if (keys.has(key)) skip('tokens', `${label}: the key sk-${key.slice(0, 4)}… exists here`);
    else {
      const models = has('tokens', 'model_limits')
        ? flag(token.model_limits_enabled)
          ? text(token.model_limits)
          : ''
        : text(token.models);
      const subnet = has('tokens', 'allow_ips')
        ? allowIpsToSubnets(text(token.allow_ips))
        : text(token.subnet);
      if (text(token.group) !== '') {
        report.notes.push(
          `key ${label}: group ${text(token.group)} not carried over (keys use their user's groups)`,
        );
      }
      await db
        .insertInto('tokens')
        .values({
          user_id: owner,
          key,
          status: num(token.status) || 1,
          name: text(token.name).slice(0, 64),
          created_time: num(token.created_time),
          accessed_time: num(token.accessed_time),
          expired_time:
            token.expired_time === null || token.expired_time === undefined ? -1 : num(token.expired_time),
          remain_quota: num(token.remain_quota),
          unlimited_quota: flag(token.unlimited_quota),
          used_quota: num(token.used_quota),
          models,
          subnet,
        })
        .execute();
      keys.add(key);
      count('tokens').imported += 1;
    }
  }
}
