import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeTokenCost } from '../billing/quota-cost';
import { invalidType, missingParameter } from '../protocols/openai-chat/openai-request-fields';
import { buildChannelRequest } from './build-upstream-request';
import { callChannelForWhole } from './relay-attempts';
import type { TokenUsage } from '../providers/provider-types';
import { deliverJsonBody, holdWholeAnswer } from './relay-delivery';
import { createSettlementCounter, upstreamModelOf, type RelayJob } from './relay-job';
import { readOptionalString, requireModel, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';
import { reserveForInput } from './reserve-for-input';

/** OpenAI's moderation endpoint picks this model when the request names none. */
const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/** Text, a list of texts, token ids or lists of token ids; moderations also take a list of content parts. */
function checkInput(input: unknown): void {
  if (input === undefined || input === null) throw missingParameter('input');
  if (typeof input !== 'string' && !Array.isArray(input)) {
    throw invalidType('input', 'a string or an array', input);
  }
}

/** The embeddings answer with `usage` set to the count the relay made, when the vendor reported none. */
function withUsage(body: Buffer, promptTokens: number): Buffer {
  try {
    const answer = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    answer.usage = { prompt_tokens: promptTokens, total_tokens: promptTokens };
    return Buffer.from(JSON.stringify(answer));
  } catch {
    return body;
  }
}

/**
 * POST /v1/embeddings and POST /v1/moderations: input only, billed on prompt tokens, the upstream's JSON
 * answer forwarded as it is.
 */
export async function relayEmbeddings(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
  endpoint: 'embeddings' | 'moderations',
): Promise<void> {
  const { value: body, raw } = request.body;
  const model =
    endpoint === 'moderations'
      ? readOptionalString(body, 'model')?.trim() || DEFAULT_MODERATION_MODEL
      : requireModel(body);
  checkInput(body.input);
  let isCountedLocally = false;
  const countLocally = async (job: RelayJob): Promise<TokenUsage> => {
    const counter = createSettlementCounter(job);
    return { promptTokens: await counter.input(body.input), completionTokens: 0 };
  };
  await runRelay(runtime, request, reply, {
    endpoint,
    model,
    isStream: false,
    reserve: (job) => reserveForInput(job, body.input, 0),
    async attempt(job, adapter) {
      // runAttempts only calls with an adapter that has the capability.
      const capability = adapter[endpoint]!;
      const upstreamModel = upstreamModelOf(job);
      const request = { body, rawBody: raw, upstreamModel, isModelMapped: upstreamModel !== model };
      const built = await buildChannelRequest(job, adapter, (channel) =>
        capability.buildRequest({ ...request, channel }),
      );
      if (!built.ok) return built;
      const read = await callChannelForWhole(job, adapter, built.value);
      if (!read.ok) return read;
      const input = { ...request, channel: job.channel.credentials };
      if (endpoint === 'moderations') return deliverJsonBody(job, reply, read.value, capability, input);
      const answer = capability.readResponse(read.value, input);
      isCountedLocally = answer.usage === null;
      const usage = answer.usage ?? (await countLocally(job));
      // A vendor that reports no usage (Gemini's batchEmbedContents) gets the count the user is billed for.
      const sent = isCountedLocally ? withUsage(answer.body, usage.promptTokens) : answer.body;
      holdWholeAnswer(job, reply, sent);
      return { ok: true, value: { usage, completionText: '', answer: answer.answer, interruption: null } };
    },
    async bill(job, delivered) {
      const usage = delivered.usage ?? (await countLocally(job));
      return {
        usage,
        cost: computeTokenCost(job.pricing, usage),
        notes: isCountedLocally || !delivered.usage ? ['usage counted locally'] : [],
      };
    },
  });
}
