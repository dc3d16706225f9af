import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatRequest } from '../canonical/chat';
import { computeTokenCost } from '../billing/quota-cost';
import { openAIChatCodec } from '../protocols/openai-chat/openai-chat-codec';
import {
  checkOptionalBoolean,
  checkOptionalInteger,
  checkOptionalObject,
  invalidType,
  missingParameter,
} from '../protocols/openai-chat/openai-request-fields';
import { attemptPassThrough, type ChatCall } from './chat-lanes';
import { createSettlementCounter, type BilledUsage } from './relay-job';
import { requireModel, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';
import { reserveForInput } from './reserve-for-input';

/** OpenAI's legacy completions default to 16 tokens when max_tokens is absent. */
const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

/** https://platform.openai.com/docs/api-reference/completions/create: the fields the relay reads. */
function checkCompletionsRequest(body: Record<string, unknown>): void {
  const { prompt } = body;
  if (prompt === undefined || prompt === null) throw missingParameter('prompt');
  if (typeof prompt !== 'string' && !Array.isArray(prompt)) {
    throw invalidType('prompt', 'a string or an array', prompt);
  }
  checkOptionalBoolean(body.stream, 'stream');
  checkOptionalObject(body.stream_options, 'stream_options');
  checkOptionalInteger(body.max_tokens, 'max_tokens', 1);
  checkOptionalInteger(body.n, 'n', 1, 128);
}

/**
 * POST /v1/completions, the legacy text completions: only OpenAI-compatible vendors have them, so they take
 * the pass-through lane alone (another vendor's channel answers that it does not offer them).
 */
export async function relayCompletions(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
): Promise<void> {
  const { value: body, raw } = request.body;
  const model = requireModel(body);
  checkCompletionsRequest(body);
  const isStream = body.stream === true;
  const call: ChatCall = {
    codec: openAIChatCodec,
    body,
    raw,
    // Only its stream options are read on the pass-through lane.
    chat: body as unknown as ChatRequest,
    clientHeaders: {},
    isStream,
    reply,
  };
  const maxTokens = (body.max_tokens as number | undefined) ?? COMPLETIONS_DEFAULT_MAX_TOKENS;
  const choices = (body.n as number | undefined) ?? 1;
  await runRelay(runtime, request, reply, {
    endpoint: 'completions',
    model,
    isStream,
    reserve: (job) => reserveForInput(job, body.prompt, maxTokens * choices),
    // runAttempts only calls with an adapter that has the capability.
    attempt: (job, adapter) => attemptPassThrough(job, adapter, call, adapter.completions!),
    async bill(job, delivered): Promise<BilledUsage> {
      let usage = delivered.usage;
      const notes: string[] = [];
      if (!usage) {
        const counter = createSettlementCounter(job);
        const [promptTokens, completionTokens] = await Promise.all([
          counter.input(body.prompt),
          counter.text(delivered.completionText),
        ]);
        usage = { promptTokens, completionTokens };
        notes.push('usage counted locally');
      }
      if (delivered.interruption) notes.push(`${delivered.interruption}: billed what was produced`);
      return { usage, cost: computeTokenCost(job.pricing, usage), notes };
    },
  });
}
