import type { FastifyInstance } from 'fastify';
import { requireCaller } from '../relay/relay-job';
import { listInputItems, type InputItemsQuery } from './list-input-items';
import { deleteResponse, getStoredResponse, type ResponseStorageContext } from './response-storage';

type ById = { Params: { id: string } };

/**
 * GET and DELETE /v1/responses/{id} (https://platform.openai.com/docs/api-reference/responses/get) and
 * GET /v1/responses/{id}/input_items, for a relay scope whose key check has set the caller.
 */
export function registerStoredResponseRoutes(scope: FastifyInstance, context: ResponseStorageContext): void {
  scope.get<ById>('/responses/:id', async (request) =>
    getStoredResponse(context, requireCaller(request).userId, request.params.id),
  );
  scope.delete<ById>('/responses/:id', async (request) =>
    deleteResponse(context, requireCaller(request).userId, request.params.id),
  );
  scope.get<ById & { Querystring: InputItemsQuery }>('/responses/:id/input_items', async (request) =>
    listInputItems(context, requireCaller(request).userId, request.params.id, request.query),
  );
}
