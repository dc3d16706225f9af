import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { registerDashboardBillingRoutes } from './dashboard-billing-routes';
import { authenticateRelayKey } from './key-auth';
import { relayAudioSpeech } from './relay-audio-speech';
import { relayAudioTranscriptions } from './relay-audio-transcriptions';
import { relayChatCompletions } from './relay-chat-completions';
import { relayEmbeddings } from './relay-embeddings';
import { RelayError, relayErrors, toOpenAIErrorBody } from './relay-error';
import { relayImages } from './relay-images';
import { registerRelayModelRoutes } from './relay-models-routes';
import { parseRelayJson, type RelayJsonBody, type RelayMultipartBody } from './relay-request';
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
  ['/responses', 'The responses API'],
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

function sendRelayError(request: FastifyRequest, reply: FastifyReply, error: RelayError): FastifyReply {
  return reply.status(error.statusCode).headers(error.headers).send(toOpenAIErrorBody(error, request.id));
}

/** Every error of the relay scopes as an OpenAI error; unexpected ones are logged and answered 500. */
function handleRelayError(error: FastifyError | RelayError, request: FastifyRequest, reply: FastifyReply) {
  if (reply.sent || reply.raw.headersSent) return;
  if (error instanceof RelayError) return sendRelayError(request, reply, error);
  const status = error.statusCode ?? 500;
  if (status === 413) {
    return sendRelayError(
      request,
      reply,
      new RelayError(413, 'The request body is too large', 'invalid_request_error', 'request_too_large'),
    );
  }
  if (status >= 400 && status < 500) {
    return sendRelayError(
      request,
      reply,
      new RelayError(status, error.message, 'invalid_request_error', error.code ?? null),
    );
  }
  request.log.error({ err: error, requestId: request.id }, 'relay request failed');
  return sendRelayError(request, reply, relayErrors.internal());
}

/** What both relay scopes share: body parsers that keep the raw bytes, OpenAI errors, OpenAI 404s. */
function prepareScope(scope: FastifyInstance): void {
  scope.decorateRequest('relayCaller', null);
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
  scope.setErrorHandler(handleRelayError);
  scope.setNotFoundHandler((request, reply) =>
    sendRelayError(request, reply, relayErrors.notFound(request.method, request.url.split('?')[0] ?? '')),
  );
}

function registerV1Routes(scope: FastifyInstance, runtime: RelayRuntime): void {
  const { db } = runtime.context;
  const withKey = {
    onRequest: async (request: FastifyRequest) => {
      request.relayCaller = await authenticateRelayKey(db, runtime.keys, request);
    },
  };
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
    withKey,
    relay<RelayJsonBody>((request, reply) => relayChatCompletions(runtime, request, reply, 'chat')),
  );
  scope.post<Json>(
    '/completions',
    withKey,
    relay<RelayJsonBody>((request, reply) => relayChatCompletions(runtime, request, reply, 'completions')),
  );
  scope.post<Json>(
    '/embeddings',
    withKey,
    relay<RelayJsonBody>((request, reply) => relayEmbeddings(runtime, request, reply, 'embeddings')),
  );
  scope.post<Json>(
    '/moderations',
    withKey,
    relay<RelayJsonBody>((request, reply) => relayEmbeddings(runtime, request, reply, 'moderations')),
  );
  scope.post<Json>(
    '/images/generations',
    withKey,
    relay<RelayJsonBody>((request, reply) => relayImages(runtime, request, reply)),
  );
  scope.post<Json>(
    '/audio/speech',
    withKey,
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
 * The OpenAI-compatible relay: /v1/* and the legacy /dashboard/billing/*, each in its own scope so errors and
 * unknown paths answer in OpenAI's format while /api keeps its envelope.
 */
export function registerRelayRoutes(app: FastifyInstance, context: AppContext): void {
  const runtime = getRelayRuntime(context, app.log);
  void runtime.channels.reload();
  app.register(
    async (scope) => {
      prepareScope(scope);
      registerV1Routes(scope, runtime);
    },
    { prefix: '/v1' },
  );
  app.register(
    async (scope) => {
      prepareScope(scope);
      scope.addHook('onRequest', async (request) => {
        request.relayCaller = await authenticateRelayKey(context.db, runtime.keys, request);
      });
      registerDashboardBillingRoutes(scope, runtime);
    },
    { prefix: '/dashboard' },
  );
}
