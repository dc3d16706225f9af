import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { anthropicMessagesCodec } from '../protocols/anthropic-messages/anthropic-messages-codec';
import { geminiScopeCodec } from '../protocols/gemini/gemini-codec';
import type { IngressCodec } from '../protocols/ingress-codec';
import { openAIChatCodec } from '../protocols/openai-chat/openai-chat-codec';
import { RelayError } from './relay-error';

/** The client protocol of a relay path, as the relay scopes (register-relay-routes.ts) divide them. */
function codecOfPath(path: string): IngressCodec | null {
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return anthropicMessagesCodec;
  if (path === '/v1beta' || path.startsWith('/v1beta/')) return geminiScopeCodec;
  if (path === '/v1' || path.startsWith('/v1/')) return openAIChatCodec;
  return null;
}

/**
 * A path the router cannot decode (a broken %-escape) is refused before any scope, with its error handler,
 * is chosen. On a relay path it is answered 400 in the client's protocol, as a scope would; answers false for
 * any other error or path.
 */
export function answerRelayBadUrl(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const codec = error.code === 'FST_ERR_BAD_URL' ? codecOfPath(request.url.split('?')[0] ?? '') : null;
  if (!codec) return false;
  const refusal = new RelayError(
    400,
    'The request path is not a valid URL: it holds a broken %-escape',
    'invalid_request_error',
    'bad_url',
  );
  const encoded = codec.encodeError(refusal, request.id);
  void reply.status(encoded.status).headers(encoded.headers).send(encoded.body);
  return true;
}
