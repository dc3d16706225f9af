import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeTokenCost } from '../billing/quota-cost';
import { UpstreamFormatError } from '../canonical/translation';
import {
  convertGeminiEmbedRequest,
  convertToGeminiEmbedResponse,
} from '../protocols/gemini/convert-gemini-embeddings';
import { prepareChannelCredentials } from './channel-credentials';
import { callChannelForWhole } from './relay-attempts';
import { holdWholeAnswer } from './relay-delivery';
import { createSettlementCounter, upstreamModelOf } from './relay-job';
import type { RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';
import { reserveForInput } from './reserve-for-input';

/**
 * POST /v1beta/models/{model}:embedContent and :batchEmbedContents for Gemini clients, on any channel that
 * offers embeddings: the request translated to OpenAI's embeddings shape, which every embeddings capability
 * takes (the Gemini adapter's goes on to batchEmbedContents), and the answer back to Gemini's. Billed on the
 * input like /v1/embeddings.
 */
export async function relayGeminiEmbeddings(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
  target: { model: string; isBatch: boolean },
): Promise<void> {
  const { model, isBatch } = target;
  const embedding = convertGeminiEmbedRequest(request.body.value, model, isBatch);
  await runRelay(runtime, request, reply, {
    endpoint: 'embeddings',
    inboundProtocol: 'gemini',
    model,
    isStream: false,
    reserve: (job) => reserveForInput(job, embedding.input, 0),
    async attempt(job, adapter) {
      const prepared = await prepareChannelCredentials(runtime, job.channel, adapter);
      if (!prepared.ok) return prepared;
      // runAttempts only calls with an adapter that has the capability.
      const capability = adapter.embeddings!;
      const upstreamModel = upstreamModelOf(job);
      const body = { ...embedding, model: upstreamModel };
      const input = {
        channel: prepared.value,
        body,
        rawBody: Buffer.from(JSON.stringify(body)),
        upstreamModel,
        isModelMapped: false,
      };
      const read = await callChannelForWhole(job, adapter, await capability.buildRequest(input));
      if (!read.ok) return read;
      const answer = capability.readResponse(read.value, input);
      const converted = convertToGeminiEmbedResponse(answer.answer, isBatch);
      if (!converted) throw new UpstreamFormatError('the embeddings answer has no list of embeddings');
      holdWholeAnswer(job, reply, JSON.stringify(converted));
      return {
        ok: true,
        value: { usage: answer.usage, completionText: '', answer: null, interruption: null },
      };
    },
    async bill(job, delivered) {
      let usage = delivered.usage;
      if (!usage) {
        const counter = createSettlementCounter(job);
        usage = { promptTokens: await counter.input(embedding.input), completionTokens: 0 };
      }
      return {
        usage,
        cost: computeTokenCost(job.pricing, usage),
        notes: ['gemini client', ...(delivered.usage ? [] : ['usage counted locally'])],
      };
    },
  });
}
