import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  estimateImageOutputTokens,
  findImageMultiplier,
  supportedImageSizes,
} from '../billing/image-pricing';
import { computeImageCost, computeReservation, computeTokenCost } from '../billing/quota-cost';
import { createTokenEstimator } from '../billing/token-counter';
import { checkOptionalString } from '../protocols/openai-chat/openai-request-fields';
import { buildJsonChannelRequest } from './build-upstream-request';
import { callChannelForWhole } from './relay-attempts';
import { deliverJsonBody } from './relay-delivery';
import { relayErrors } from './relay-error';
import { createSettlementCounter, type BilledUsage } from './relay-job';
import { readOptionalString, readPositiveInteger, type RelayJsonBody } from './relay-request';
import type { RelayRuntime } from './relay-runtime';
import { runRelay } from './relay-story';

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
  for (const field of ['model', 'prompt', 'size', 'quality'] as const)
    checkOptionalString(body[field], field);
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
  const isTokenPriced = model.startsWith('gpt-image');
  const worstOutput = estimateImageOutputTokens(size, quality) * images;
  await runRelay(runtime, request, reply, {
    endpoint: 'images',
    model,
    isStream: false,
    reserve: (job) =>
      isTokenPriced
        ? computeReservation(
            job.pricing,
            options.getNumber('PreConsumedQuota'),
            createTokenEstimator(model).text(prompt),
            worstOutput,
          )
        : computeImageCost(job.pricing, images, multiplier),
    async attempt(job, adapter) {
      // runAttempts only calls with an adapter that has the capability.
      const capability = adapter.images!;
      const built = await buildJsonChannelRequest(job, adapter, (input) => capability.buildRequest(input), {
        body,
        rawBody: raw,
      });
      if (!built.ok) return built;
      const read = await callChannelForWhole(job, adapter, built.value);
      return read.ok ? deliverJsonBody(job, reply, read.value, capability) : read;
    },
    async bill(job, delivered): Promise<BilledUsage> {
      const returned = countImages(delivered.answer, images);
      if (!isTokenPriced) {
        return {
          usage: { promptTokens: 0, completionTokens: 0 },
          cost: computeImageCost(job.pricing, returned, multiplier),
          notes: [`${returned} image(s) ${size ?? 'default size'}${quality ? ` ${quality}` : ''}`],
        };
      }
      let usage = delivered.usage;
      if (!usage) {
        const counter = createSettlementCounter(job);
        usage = {
          promptTokens: await counter.text(prompt),
          completionTokens: (worstOutput / images) * returned,
        };
      }
      return { usage, cost: computeTokenCost(job.pricing, usage), notes: [`${returned} image(s)`] };
    },
  });
}
