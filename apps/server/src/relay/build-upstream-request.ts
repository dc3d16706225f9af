import { UnsupportedOptionError } from '../canonical/translation';
import type {
  ChannelCredentials,
  JsonRequestInput,
  MaybeAsync,
  ProviderAdapter,
  UpstreamRequest,
} from '../providers/provider-types';
import { prepareChannelCredentials } from './channel-credentials';
import { RelayError } from './relay-error';
import { upstreamModelOf, type RelayJob } from './relay-job';
import type { AttemptOutcome } from './upstream-failure';

/**
 * An adapter could not build a request from the channel's stored settings (a key saved before the save-time
 * checks, a config it cannot read): the channel is misconfigured, which neither the client nor the network
 * can fix.
 */
export class ChannelSetupError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/**
 * JavaScript's own TypeError or RangeError while an adapter writes the upstream request: the request has a
 * shape its translator cannot write (nested deeper than it recurses, a part it did not expect), or the
 * translator has a fault. Neither says anything about the channel, so it is not held against its health.
 */
export class RequestTranslationError extends Error {
  constructor(readonly reason: TypeError | RangeError) {
    super(reason.message);
  }
}

function rethrow(error: unknown): never {
  if (error instanceof UnsupportedOptionError || error instanceof RelayError) throw error;
  if (error instanceof TypeError || error instanceof RangeError) throw new RequestTranslationError(error);
  throw new ChannelSetupError(error);
}

/**
 * Runs an adapter's buildRequest, sync or async, so that what it throws about the channel (anything but an
 * option the vendor lacks or a request it cannot write) reads as the channel's setup failing rather than as
 * the upstream being unreachable.
 */
export function buildUpstreamRequest<T>(build: () => T): T {
  return buildRequestOf({ buildRequest: build }, undefined);
}

/**
 * buildUpstreamRequest for a capability's buildRequest with its input, called as the capability's method:
 * the pass-through lane's way, without a callback made for every request.
 */
export function buildRequestOf<Input, Built>(
  capability: { buildRequest(input: Input): Built },
  input: Input,
): Built {
  let built: Built;
  try {
    built = capability.buildRequest(input);
  } catch (error) {
    rethrow(error);
  }
  return built instanceof Promise ? (built.catch(rethrow) as Built) : built;
}

/**
 * The upstream request of one attempt on the job's channel: the channel's credentials prepared first (an
 * access token for Vertex, Baidu …, from the cache), then the adapter's build, guarded as above. Every endpoint
 * but chat builds through here; chat's lanes do the same inline, without an await when no token is needed.
 */
export async function buildChannelRequest(
  job: RelayJob,
  adapter: ProviderAdapter,
  build: (channel: ChannelCredentials) => MaybeAsync<UpstreamRequest>,
): Promise<AttemptOutcome<UpstreamRequest>> {
  const prepared = await prepareChannelCredentials(job.runtime, job.channel, adapter);
  if (!prepared.ok) return prepared;
  return { ok: true, value: await buildUpstreamRequest(() => build(prepared.value)) };
}

/**
 * The same for a JSON call forwarded as the client sent it (images, speech): the client's body and bytes,
 * with the model name the channel maps the requested one to.
 */
export function buildJsonChannelRequest(
  job: RelayJob,
  adapter: ProviderAdapter,
  build: (input: JsonRequestInput) => UpstreamRequest,
  client: { body: Record<string, unknown>; rawBody: Buffer },
): Promise<AttemptOutcome<UpstreamRequest>> {
  const upstreamModel = upstreamModelOf(job);
  return buildChannelRequest(job, adapter, (channel) =>
    build({ channel, ...client, upstreamModel, isModelMapped: upstreamModel !== job.model }),
  );
}
