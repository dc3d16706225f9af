import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { convertToGeminiModel, listGeminiModels } from '../protocols/gemini/convert-to-gemini-models';
import { createGeminiCodec } from '../protocols/gemini/gemini-codec';
import { createKeyCheck, googleKeyPlacement } from './key-auth';
import { relayChatCompletions } from './relay-chat-completions';
import { relayCountTokens } from './relay-count-tokens';
import { relayErrors } from './relay-error';
import { relayGeminiEmbeddings } from './relay-gemini-embeddings';
import { listAvailableModels } from './relay-models-routes';
import { refuseMultipartBody, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';

interface GeminiCall {
  model: string;
  method: string;
}

/**
 * `models/{model}:{method}` as the path wildcard holds it (the part after /v1beta/models/): the method after
 * the last colon, since model names may hold slashes and colons of their own. The router has already decoded
 * the wildcard (`%2F`, `%3A`): decoding it again would read a literal `%` as an escape.
 */
function readGeminiCall(path: string): GeminiCall | null {
  const colon = path.lastIndexOf(':');
  if (colon < 0) return null;
  return { model: path.slice(0, colon).trim(), method: path.slice(colon + 1) };
}

type CallRequest = FastifyRequest<{
  Body: RelayJsonBody;
  Params: { '*': string };
  Querystring: { alt?: string };
}>;

/** One POST under /v1beta/models/, by its method; an unknown method is an unknown path. */
async function relayGeminiCall(runtime: RelayRuntime, request: CallRequest, reply: FastifyReply) {
  const call = readGeminiCall(request.params['*']);
  const path = request.url.split('?')[0] ?? '';
  if (!call) throw relayErrors.notFound(request.method, path);
  const { model, method } = call;
  if (model === '')
    throw relayErrors.invalidRequest('The URL names no model: models/{model}:' + method, 'model');
  switch (method) {
    case 'generateContent':
    case 'countTokens': {
      const codec = createGeminiCodec({ model, isStream: false, isSse: false });
      return method === 'countTokens'
        ? relayCountTokens(runtime, request, reply, codec)
        : relayChatCompletions(runtime, request, reply, codec);
    }
    case 'streamGenerateContent': {
      const isSse = request.query.alt === 'sse';
      return relayChatCompletions(
        runtime,
        request,
        reply,
        createGeminiCodec({ model, isStream: true, isSse }),
      );
    }
    case 'embedContent':
    case 'batchEmbedContents':
      return relayGeminiEmbeddings(runtime, request, reply, {
        model,
        isBatch: method === 'batchEmbedContents',
      });
    default:
      throw relayErrors.notFound(request.method, path);
  }
}

/**
 * The Gemini API's paths for Gemini clients (@google/genai, the Gemini CLI, the AI SDK's Google provider) with
 * the base URL set to the gateway: generateContent and streamGenerateContent (server-sent events with
 * `?alt=sse`, else one JSON array) through the one relay story, countTokens, embedContent and
 * batchEmbedContents, and the key's models. The key comes as x-goog-api-key or ?key=.
 */
export function registerGeminiRoutes(scope: FastifyInstance, runtime: RelayRuntime): void {
  const { db } = runtime.context;
  const onRequest = createKeyCheck(db, runtime.keys, googleKeyPlacement);

  scope.get<{ Querystring: { pageSize?: string; pageToken?: string } }>(
    '/models',
    { onRequest },
    async (request) => {
      const models = [...(await listAvailableModels(runtime, request)).keys()].sort();
      return listGeminiModels(models, request.query);
    },
  );

  // A wildcard, because model names may hold slashes; the method follows the model after a colon.
  scope.get<{ Params: { '*': string } }>('/models/*', { onRequest }, async (request) => {
    const model = request.params['*'];
    if (!(await listAvailableModels(runtime, request)).has(model)) throw relayErrors.modelNotFound(model);
    return convertToGeminiModel(model);
  });

  scope.post('/models/*', { onRequest, preParsing: refuseMultipartBody }, async (request, reply) => {
    await relayGeminiCall(runtime, request as CallRequest, reply);
    return reply;
  });
}
