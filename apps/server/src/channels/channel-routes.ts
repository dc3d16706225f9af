import type { FastifyInstance } from 'fastify';
import { channelFieldsSchema, channelUpdateSchema, isRootRole } from '@gatehouse/shared';
import type { AppContext } from '../context';
import { createGuards, currentUser } from '../http/auth';
import { ok } from '../http/envelope';
import { readPage } from '../db/paging';
import { parseId, parseWith } from '../http/validate';
import { listChannels, readChannelSort, searchChannels, toPublicChannel } from './channel-repository';
import {
  createChannels,
  deleteChannel,
  deleteDisabledChannels,
  getChannel,
  updateChannel,
} from './channel-service';
import { listKnownModels, listKnownModelsByType } from './known-models';

const SEARCH_MATCH_LIMIT = 1000;

interface ListQuery {
  p?: string;
  size?: string;
  keyword?: string;
  /** a column of `channelSortColumns`; newest first by default */
  order?: string;
  direction?: string;
}

/**
 * Channel management (SPEC §7), admins only. Keys are secrets: lists answer `key: ''`; only root reading one
 * channel (`GET /api/channel/{id}`, for the edit and copy forms) gets the stored key and config credentials.
 */
export function registerChannelRoutes(app: FastifyInstance, context: AppContext): void {
  const { admin } = createGuards(context);

  app.get<{ Querystring: ListQuery }>('/api/channel/', { preHandler: admin }, async (request) => {
    const rows = await listChannels(context.db, readPage(request.query), readChannelSort(request.query));
    return ok(rows.map((row) => toPublicChannel(row)));
  });

  app.get<{ Querystring: ListQuery }>('/api/channel/search', { preHandler: admin }, async (request) => {
    const keyword = String(request.query.keyword ?? '').trim();
    const { p, size } = request.query;
    // A search answers every match at once (DESIGN.md); `p` and `size` page it for scripts that ask.
    const page =
      p === undefined && size === undefined
        ? { limit: SEARCH_MATCH_LIMIT, offset: 0 }
        : readPage(request.query);
    const sort = readChannelSort(request.query);
    const rows = keyword
      ? await searchChannels(context.db, keyword, page, sort)
      : await listChannels(context.db, page, sort);
    return ok(rows.map((row) => toPublicChannel(row)));
  });

  app.get('/api/channel/models', { preHandler: admin }, async () => ok(listKnownModels()));

  app.get('/api/models', { preHandler: admin }, async () => ok(listKnownModelsByType()));

  app.get<{ Params: { id: string } }>('/api/channel/:id', { preHandler: admin }, async (request) => {
    const channel = await getChannel(context, parseId(request.params.id));
    return ok(toPublicChannel(channel, { withSecrets: isRootRole(currentUser(request).role) }));
  });

  app.post('/api/channel/', { preHandler: admin }, async (request) => {
    const ids = await createChannels(context, parseWith(channelFieldsSchema, request.body));
    const message =
      ids.length > 1 ? `${ids.length} channels created successfully!` : 'Channel created successfully!';
    return ok({ ids }, message);
  });

  app.put('/api/channel/', { preHandler: admin }, async (request) => {
    const { id, ...fields } = parseWith(channelUpdateSchema, request.body);
    const channel = await updateChannel(context, id, fields);
    return ok(toPublicChannel(channel), 'Channel updated successfully!');
  });

  app.delete('/api/channel/disabled', { preHandler: admin }, async () => {
    const count = await deleteDisabledChannels(context);
    return ok(count, `deleted all disabled channels, ${count} in total`);
  });

  app.delete<{ Params: { id: string } }>('/api/channel/:id', { preHandler: admin }, async (request) => {
    await deleteChannel(context, parseId(request.params.id));
    return ok(undefined, 'Channel deleted successfully!');
  });
}
