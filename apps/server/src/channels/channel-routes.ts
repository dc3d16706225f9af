import type { FastifyInstance } from 'fastify';
import {
  channelFieldsSchema,
  channelListQuerySchema,
  channelUpdateSchema,
  isRootRole,
  type ChannelListQuery,
} from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { auditActorOf } from '../audit/audit-actor';
import { readPage } from '../db/paging';
import { parseId, parseWith } from '../http/validate';
import { listChannels, searchChannels, toPublicChannel, type ChannelSort } from './channel-repository';
import {
  createChannels,
  deleteChannel,
  deleteDisabledChannels,
  getChannel,
  updateChannel,
} from './channel-service';
import { listKnownModels, listKnownModelsByType } from './known-models';
import type { ChannelRow } from '../db/schema';
import { getChannelBreaker } from '../relay/channel-breaker';

const SEARCH_MATCH_LIMIT = 1000;

/** Newest first unless the console asks for another column (the schema reads an unknown one as id). */
const sortOf = (query: ChannelListQuery): ChannelSort => ({
  column: query.order,
  direction: query.direction,
});

/**
 * Channel management, admins only. Keys are secrets: lists answer `key: ''`; only root reading one
 * channel (`GET /api/channel/{id}`, for the edit and copy forms) gets the stored key and config credentials,
 * and only root may give a channel a new base URL without entering its key again.
 */
export function registerChannelRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);
  const breaker = getChannelBreaker(context);
  /** A row of a list: with its circuit state, recent error rate and latency on this server. */
  const toListedChannel = (row: ChannelRow) => toPublicChannel(row, { health: breaker.summarize(row.id) });

  app.get('/api/channel/', { preHandler: admin }, async (request) => {
    const query = parseWith(channelListQuerySchema, request.query);
    const rows = await listChannels(context.db, readPage(query), sortOf(query));
    return ok(rows.map((row) => toListedChannel(row)));
  });

  app.get('/api/channel/search', { preHandler: admin }, async (request) => {
    const query = parseWith(channelListQuerySchema, request.query);
    const { keyword, p, size } = query;
    // A search answers every match at once (up to SEARCH_MATCH_LIMIT), as the console's search box expects;
    // `p` and `size` page it for scripts that ask.
    const page =
      p === undefined && size === undefined ? { limit: SEARCH_MATCH_LIMIT, offset: 0 } : readPage(query);
    const sort = sortOf(query);
    const rows = keyword
      ? await searchChannels(context.db, keyword, page, sort)
      : await listChannels(context.db, page, sort);
    return ok(rows.map((row) => toListedChannel(row)));
  });

  app.get('/api/channel/models', { preHandler: admin }, async () => ok(listKnownModels()));

  app.get('/api/models', { preHandler: admin }, async () => ok(listKnownModelsByType()));

  app.get<{ Params: { id: string } }>('/api/channel/:id', { preHandler: admin }, async (request) => {
    const channel = await getChannel(context, parseId(request.params.id));
    return ok(
      toPublicChannel(channel, {
        withSecrets: isRootRole(currentUser(request).role),
        health: breaker.summarize(channel.id),
      }),
    );
  });

  app.post('/api/channel/', { preHandler: admin }, async (request) => {
    const ids = await createChannels(
      context,
      parseWith(channelFieldsSchema, request.body),
      auditActorOf(request),
    );
    const message =
      ids.length > 1 ? `${ids.length} channels created successfully!` : 'Channel created successfully!';
    return ok({ ids }, message);
  });

  app.put('/api/channel/', { preHandler: admin }, async (request) => {
    const { id, ...fields } = parseWith(channelUpdateSchema, request.body);
    const channel = await updateChannel(context, id, fields, auditActorOf(request), {
      mayMoveStoredKey: isRootRole(currentUser(request).role),
    });
    return ok(toListedChannel(channel), 'Channel updated successfully!');
  });

  app.delete('/api/channel/disabled', { preHandler: admin }, async (request) => {
    const count = await deleteDisabledChannels(context, auditActorOf(request));
    return ok(count, `deleted all disabled channels, ${count} in total`);
  });

  app.delete<{ Params: { id: string } }>('/api/channel/:id', { preHandler: admin }, async (request) => {
    await deleteChannel(context, parseId(request.params.id), auditActorOf(request));
    return ok(undefined, 'Channel deleted successfully!');
  });
}
