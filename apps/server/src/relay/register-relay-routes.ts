import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { isDatabaseUnavailable } from '../db/database-unavailable';
import { RepeatedFailureLog } from '../logging/repeated-failure';
import { anthropicMessagesCodec } from '../protocols/anthropic-messages/anthropic-messages-codec';
import { geminiScopeCodec } from '../protocols/gemini/gemini-codec';
import type { IngressCodec } from '../protocols/ingress-codec';
import { openAIChatCodec } from '../protocols/openai-chat/openai-chat-codec';
import { startStoredResponsePruning } from '../stored-responses/stored-response-pruning';
import { registerStoredResponseRoutes } from '../stored-responses/stored-response-routes';
import { isAnthropicClient } from './anthropic-model-list';
import { registerDashboardBillingRoutes } from './dashboard-billing-routes';
import { registerGeminiRoutes } from './register-gemini-routes';
import { createKeyCheck } from './key-auth';
import { circuitStates } from './channel-breaker';
import { getTelemetry } from '../observability/telemetry';
import { relayAudioSpeech } from './relay-audio-speech';
import { relayAudioTranscriptions } from './relay-audio-transcriptions';
import { relayChatCompletions } from './relay-chat-completions';
import { relayCompletions } from './relay-completions';
import { relayCountTokens } from './relay-count-tokens';
import { relayEmbeddings } from './relay-embeddings';
import { RelayError, relayErrors } from './relay-error';
import { relayImages } from './relay-images';
import { registerRelayModelRoutes } from './relay-models-routes';
import {
  parseRelayJson,
  refuseMultipartBody,
  type RelayJsonBody,
  type RelayMultipartBody,
} from './relay-request';
import { relayResponses } from './relay-responses';
import { getRelayRuntime, type RelayRuntime } from './relay-runtime';

/** OpenAI API families this gateway does not relay: answered 501, never 404 (the path is real). */
const UNSUPPORTED_PATHS: Array<[string, string]> = [
  ['/files', 'The files API'],
  ['/uploads', 'The uploads API'],
  ['/fine_tuning', 'Fine-tuning'],
  ['/fine-tunes', 'Fine-tuning'],
  ['/assistants', 'The assistants API'],
  ['/threads', 'The assistants API (threads)'],
  ['/batches', 'The batch API'],
  ['/vector_stores', 'Vector stores'],
  ['/conversations', 'The conversations API'],
  ['/realtime', 'The realtime API'],
  ['/containers', 'Containers'],
  ['/evals', 'Evals'],
  ['/organization', 'The administration API'],
  ['/images/edits', 'Image edits'],
  ['/images/variations', 'Image variations'],
  ['/edits', 'The edits API'],
  ['/engines', 'The engines API'],
  ['/videos', 'The videos API'],
];

/** An error in the client's protocol (the codec of the scope's routes). */
function sendRelayError(
  codec: IngressCodec,
  request: FastifyRequest,
  reply: FastifyReply,
  error: RelayError,
): FastifyReply {
  const encoded = codec.encodeError(error, request.id);
  return reply.status(encoded.status).headers(encoded.headers).send(encoded.body);
}

/** Relay requests refused because the database is away: one report with a stack per interval (all scopes). */
const databaseAway = new RepeatedFailureLog();

/** Every error of a relay scope in its protocol; unexpected ones are logged and answered 500. */
function createRelayErrorHandler(codec: IngressCodec) {
  return (error: FastifyError | RelayError, request: FastifyRequest, reply: FastifyReply) => {
    if (reply.sent || reply.raw.headersSent) return;
    if (error instanceof RelayError) return sendRelayError(codec, request, reply, error);
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return sendRelayError(
        codec,
        request,
        reply,
        new RelayError(413, 'The request body is too large', 'invalid_request_error', 'request_too_large'),
      );
    }
    if (status >= 400 && status < 500) {
      return sendRelayError(
        codec,
        request,
        reply,
        new RelayError(status, error.message, 'invalid_request_error', error.code ?? null),
      );
    }
    if (isDatabaseUnavailable(error)) {
      const { shouldLog, suppressed } = databaseAway.take();
      if (shouldLog) {
        request.log.error(
          { err: error, requestId: request.id, suppressed },
          suppressed > 0
            ? `relay request failed: the database is unavailable (and ${suppressed} more since the last report)`
            : 'relay request failed: the database is unavailable',
        );
      }
      return sendRelayError(codec, request, reply, relayErrors.databaseUnavailable());
    }
    request.log.error({ err: error, requestId: request.id }, 'relay request failed');
    return sendRelayError(codec, request, reply, relayErrors.internal());
  };
}

/**
 * What every relay scope shares: body parsers that keep the raw bytes, and errors and 404s in the scope's
 * client protocol (the codec of its routes).
 */
function prepareScope(scope: FastifyInstance, codec: IngressCodec = openAIChatCodec): void {
  scope.decorateRequest('relayCaller', null);
  scope.decorateRequest('relayReceivedAt', 0);
  scope.decorateRequest('relayAuthenticatedAt', 0);
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, { raw: body as Buffer } satisfies RelayMultipartBody);
  });
  // Any other type is read as JSON: SDKs send application/json, curl users often forget the header.
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseRelayJson(body as Buffer));
    } catch (error) {
      done(error as RelayError);
    }
  });
  scope.setErrorHandler(createRelayErrorHandler(codec));
  scope.setNotFoundHandler((request, reply) =>
    sendRelayError(
      codec,
      request,
      reply,
      relayErrors.notFound(request.method, request.url.split('?')[0] ?? ''),
    ),
  );
}

function registerV1Routes(scope: FastifyInstance, runtime: RelayRuntime): void {
  const withKey = { onRequest: createKeyCheck(runtime.context.db, runtime.keys) };
  const withJsonBody = { ...withKey, preParsing: refuseMultipartBody };
  type Json = { Body: RelayJsonBody };
  type Multipart = { Body: RelayMultipartBody };

  // A story answers through `reply` itself (streams included): returning the reply tells Fastify not to send
  // the handler's result as well.
  const relay =
    <Body>(story: (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => Promise<void>) =>
    async (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => {
      await story(request, reply);
      return reply;
    };

  scope.post<Json>(
    '/chat/completions',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayChatCompletions(runtime, request, reply, openAIChatCodec)),
  );
  scope.post<Json>(
    '/responses',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayResponses(runtime, request, reply)),
  );
  scope.register(async (stored) => {
    stored.addHook('onRequest', withKey.onRequest);
    registerStoredResponseRoutes(stored, runtime.context);
  });
  scope.post<Json>(
    '/completions',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayCompletions(runtime, request, reply)),
  );
  scope.post<Json>(
    '/embeddings',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayEmbeddings(runtime, request, reply, 'embeddings')),
  );
  scope.post<Json>(
    '/moderations',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayEmbeddings(runtime, request, reply, 'moderations')),
  );
  scope.post<Json>(
    '/images/generations',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayImages(runtime, request, reply)),
  );
  scope.post<Json>(
    '/audio/speech',
    withJsonBody,
    relay<RelayJsonBody>((request, reply) => relayAudioSpeech(runtime, request, reply)),
  );
  scope.post<Multipart>(
    '/audio/transcriptions',
    withKey,
    relay<RelayMultipartBody>((request, reply) =>
      relayAudioTranscriptions(runtime, request, reply, 'audioTranscriptions'),
    ),
  );
  scope.post<Multipart>(
    '/audio/translations',
    withKey,
    relay<RelayMultipartBody>((request, reply) =>
      relayAudioTranscriptions(runtime, request, reply, 'audioTranslations'),
    ),
  );
  scope.register(async (models) => {
    models.addHook('onRequest', withKey.onRequest);
    // Anthropic's clients read /v1/models too: their errors (a bad key, an unknown model) in Anthropic's shape.
    const openAIErrors = createRelayErrorHandler(openAIChatCodec);
    const anthropicErrors = createRelayErrorHandler(anthropicMessagesCodec);
    models.setErrorHandler((error: FastifyError | RelayError, request, reply) =>
      (isAnthropicClient(request.headers) ? anthropicErrors : openAIErrors)(error, request, reply),
    );
    registerRelayModelRoutes(models, runtime);
  });
  scope.register(
    async (billing) => {
      billing.addHook('onRequest', withKey.onRequest);
      registerDashboardBillingRoutes(billing, runtime);
    },
    { prefix: '/dashboard' },
  );
  for (const [path, what] of UNSUPPORTED_PATHS) {
    const refuse = async () => {
      throw relayErrors.notImplemented(what);
    };
    scope.all(path, refuse);
    scope.all(`${path}/*`, refuse);
  }
}

/**
 * Anthropic's Messages API (/v1/messages and its token count) in a scope of its own, so that errors and
 * unknown paths under /v1/messages answer in Anthropic's shape. The key may come as x-api-key, as
 * Anthropic's clients send it, or as a bearer token.
 */
function registerMessagesRoutes(scope: FastifyInstance, runtime: RelayRuntime): void {
  const codec = anthropicMessagesCodec;
  const withJsonBody = {
    onRequest: createKeyCheck(runtime.context.db, runtime.keys),
    preParsing: refuseMultipartBody,
  };
  scope.post<{ Body: RelayJsonBody }>('/', withJsonBody, async (request, reply) => {
    await relayChatCompletions(runtime, request, reply, codec);
    return reply;
  });
  scope.post<{ Body: RelayJsonBody }>('/count_tokens', withJsonBody, async (request, reply) => {
    await relayCountTokens(runtime, request, reply, codec);
    return reply;
  });
}

/**
 * The OpenAI-compatible relay: /v1/* and the legacy /dashboard/billing/*, each in its own scope so errors and
 * unknown paths answer in OpenAI's format while /api keeps its envelope; Anthropic's /v1/messages and the
 * Gemini API's /v1beta in theirs.
 */
export function registerRelayRoutes(app: FastifyInstance, context: AppContext): void {
  const runtime = getRelayRuntime(context, app.log);
  getTelemetry(context).setCircuitStateSource(() => circuitStates(context));
  void runtime.channels.reload();
  startStoredResponsePruning(context, app.log);
  app.register(
    async (scope) => {
      prepareScope(scope);
      registerV1Routes(scope, runtime);
    },
    { prefix: '/v1' },
  );
  app.register(
    async (scope) => {
      prepareScope(scope, anthropicMessagesCodec);
      registerMessagesRoutes(scope, runtime);
    },
    { prefix: '/v1/messages' },
  );
  app.register(
    async (scope) => {
      prepareScope(scope, geminiScopeCodec);
      registerGeminiRoutes(scope, runtime);
    },
    { prefix: '/v1beta' },
  );
  app.register(
    async (scope) => {
      prepareScope(scope);
      scope.addHook('onRequest', createKeyCheck(context.db, runtime.keys));
      registerDashboardBillingRoutes(scope, runtime);
    },
    { prefix: '/dashboard' },
  );
}
