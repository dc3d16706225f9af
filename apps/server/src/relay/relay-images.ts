import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  estimateImageOutputTokens,
  findImageMultiplier,
  supportedImageSizes,
} from '../billing/image-pricing';
import { computeImageCost, computeReservation, computeTokenCost } from '../billing/quota-cost';
import { createTokenEstimator } from '../billing/token-counter';
import { callChannel, runAttempts } from './relay-attempts';
import { deliverJson } from './relay-delivery';
import { relayErrors } from './relay-error';
import {
  createSettlementCounter,
  finishRelayJob,
  reserveForJob,
  startRelayJob,
  upstreamModelOf,
  type BilledUsage,
} from './relay-job';
import { readOptionalString, readPositiveInteger, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';

/** OpenAI generates with dall-e-2 when the request names no model. */
const DEFAULT_IMAGE_MODEL = 'dall-e-2';
const MAX_IMAGES = 10;

function countImages(answer: unknown, requested: number): number {
  const data = (answer as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data.length : requested;
}

/**
 * POST /v1/images/generations. Per-image models (DALL·E) reserve and bill images × size/quality multiplier,
 * settled on the images actually returned; token-priced models (gpt-image-1) reserve the worst case of the
 * size and quality and settle on the usage the answer reports.
 */
export async function relayImages(
  runtime: RelayRuntime,
  request: FastifyRequest<{ Body: RelayJsonBody }>,
  reply: FastifyReply,
): Promise<void> {
  const { options } = runtime.context;
  const { value: body, raw } = request.body;
  const model = readOptionalString(body, 'model')?.trim() || DEFAULT_IMAGE_MODEL;
  const prompt = readOptionalString(body, 'prompt');
  if (!prompt) throw relayErrors.invalidRequest('prompt is required', 'prompt');
  const images = readPositiveInteger(body, 'n') ?? 1;
  if (images > MAX_IMAGES) throw relayErrors.invalidRequest(`n must be at most ${MAX_IMAGES}`, 'n');
  const size = readOptionalString(body, 'size');
  const quality = readOptionalString(body, 'quality');
  const multiplier = findImageMultiplier(model, size, quality);
  if (multiplier === null) {
    throw relayErrors.invalidRequest(
      `size ${size} is not supported by ${model}; use one of ${supportedImageSizes(model).join(', ')}`,
      'size',
    );
  }
  const job = await startRelayJob(runtime, request, reply, { capability: 'images', model, isStream: false });

  const isTokenPriced = model.startsWith('gpt-image');
  const promptEstimate = createTokenEstimator(model).text(prompt);
  const worstOutput = estimateImageOutputTokens(size, quality) * images;
  await reserveForJob(
    job,
    isTokenPriced
      ? computeReservation(job.pricing, options.getNumber('PreConsumedQuota'), promptEstimate, worstOutput)
      : computeImageCost(job.pricing, images, multiplier),
  );

  let billed: BilledUsage | null = null;
  try {
    const answer = await runAttempts(job, async (adapter) => {
      // runAttempts only calls with an adapter that has the capability.
      const endpoint = adapter.images!;
      const upstreamModel = upstreamModelOf(job);
      const upstream = endpoint.buildRequest({
        channel: job.channel.credentials,
        body,
        rawBody: raw,
        upstreamModel,
        isModelMapped: upstreamModel !== model,
      });
      const called = await callChannel(job, adapter, upstream);
      return called.ok ? deliverJson(job, reply, called.value, endpoint) : called;
    });
    const returned = countImages(answer.answer, images);
    if (isTokenPriced) {
      let usage = answer.usage;
      if (!usage) {
        const counter = await createSettlementCounter(job);
        usage = { promptTokens: counter.text(prompt), completionTokens: (worstOutput / images) * returned };
      }
      billed = { usage, cost: computeTokenCost(job.pricing, usage), notes: [`${returned} image(s)`] };
    } else {
      billed = {
        usage: { promptTokens: 0, completionTokens: 0 },
        cost: computeImageCost(job.pricing, returned, multiplier),
        notes: [`${returned} image(s) ${size ?? 'default size'}${quality ? ` ${quality}` : ''}`],
      };
    }
  } finally {
    await finishRelayJob(job, billed);
  }
}
