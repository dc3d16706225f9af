import type { FastifyInstance } from 'fastify';
import { findChannelType } from '@gatehouse/shared';
import {
  isAnthropicClient,
  pageAnthropicModels,
  toAnthropicModel,
  type AnthropicModelPageQuery,
} from './anthropic-model-list';
import type { RelayChannel } from './channel-cache';
import { relayErrors } from './relay-error';
import { requireCaller } from './relay-job';
import type { RelayRuntime } from './relay-runtime';

interface OpenAIModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

function toOpenAIModel(id: string, channel: RelayChannel): OpenAIModel {
  return {
    id,
    object: 'model',
    created: channel.createdTime,
    owned_by: findChannelType(channel.type)?.name ?? 'custom',
  };
}

/**
 * The models this key can call now — served by an enabled channel in one of the owner's groups, and inside
 * the key's model list when it has one — each with the channel that serves it first.
 */
export async function listAvailableModels(
  runtime: RelayRuntime,
  request: Parameters<typeof requireCaller>[0],
): Promise<Map<string, RelayChannel>> {
  const caller = requireCaller(request);
  await runtime.channels.ready();
  const models = runtime.channels.listModels(caller.groups);
  if (caller.allowedModels) {
    for (const model of models.keys()) if (!caller.allowedModels.has(model)) models.delete(model);
  }
  return models;
}

/**
 * GET /v1/models and /v1/models/{model}: the models this key can call now, in OpenAI's shape, or in
 * Anthropic's when the client sends anthropic-version (Anthropic's SDKs share the /v1/models path).
 */
export function registerRelayModelRoutes(scope: FastifyInstance, runtime: RelayRuntime): void {
  const availableModels = (request: Parameters<typeof requireCaller>[0]) =>
    listAvailableModels(runtime, request);

  scope.get<{ Querystring: AnthropicModelPageQuery }>('/models', async (request) => {
    const models = [...(await availableModels(request))].sort(([left], [right]) => left.localeCompare(right));
    if (isAnthropicClient(request.headers)) return pageAnthropicModels(models, request.query);
    return { object: 'list', data: models.map(([id, channel]) => toOpenAIModel(id, channel)) };
  });

  // A wildcard, because model names may hold slashes (meta-llama/Llama-3.3-70B-Instruct-Turbo).
  scope.get<{ Params: { '*': string } }>('/models/*', async (request) => {
    const model = decodeURIComponent(request.params['*']);
    const channel = (await availableModels(request)).get(model);
    if (!channel) throw relayErrors.modelNotFound(model);
    return isAnthropicClient(request.headers)
      ? toAnthropicModel(model, channel)
      : toOpenAIModel(model, channel);
  });
}
