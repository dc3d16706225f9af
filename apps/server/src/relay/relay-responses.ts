import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  convertResponsesRequest,
  withPreviousConversation,
} from '../protocols/openai-responses/convert-responses-request';
import { createOpenAIResponsesCodec } from '../protocols/openai-responses/openai-responses-codec';
import {
  loadPreviousConversation,
  saveResponse,
  shouldStoreResponse,
} from '../stored-responses/response-storage';
import { relayChatCompletions } from './relay-chat-completions';
import { requireCaller } from './relay-job';
import type { RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';

/**
 * POST /v1/responses: the chat story with the Responses codec. Before it, the body is decoded (a 400 naming
 * the field) and a previous_response_id's stored conversation is read for the key's user; after it, the
 * response is stored when storage is on and the client did not say `store: false`. A response that could not
 * be stored is logged, not failed: the client already has it.
 */
export async function relayResponses(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
): Promise<void> {
  const { context, log } = runtime;
  const caller = requireCaller(request);
  const body = request.body.value;
  // Read first: the tools a stored conversation's tool searches found are offered again (a previous id that
  // is not a string is the decoder's 400).
  const previous =
    typeof body.previous_response_id === 'string' && body.previous_response_id !== ''
      ? await loadPreviousConversation(context, caller.userId, body.previous_response_id)
      : { messages: [], foundTools: [] };
  const decoded = convertResponsesRequest(body, previous.foundTools);
  const isStored = shouldStoreResponse(context.options, decoded);
  const responses = { ...decoded, echo: { ...decoded.echo, store: isStored } };
  const codec = createOpenAIResponsesCodec(responses, withPreviousConversation(responses, previous.messages));

  await relayChatCompletions(runtime, request, reply, codec);

  const response = codec.finalResponse();
  if (!isStored || !response || response.status === 'failed') return;
  await saveResponse(
    context,
    { userId: caller.userId, tokenId: caller.tokenId },
    { messages: [...previous.messages, ...decoded.input], foundTools: decoded.foundTools },
    response,
  ).catch((error: unknown) =>
    log.error({ err: error, requestId: request.id, responseId: response.id }, 'storing a response failed'),
  );
}
