import { getChannelBreaker } from './channel-breaker';
import type { RelayChannel } from './channel-cache';
import { RelayError } from './relay-error';
import type { RelayRuntime } from './relay-runtime';

/**
 * A channel for (group, model) that its circuit breaker lets serve: open and resting channels are skipped
 * while another can serve. Null when none is left (see describeCoolingChannels for why).
 */
export function pickServingChannel(
  runtime: RelayRuntime,
  group: string,
  model: string,
  excluded: ReadonlySet<number>,
): RelayChannel | null {
  const breaker = getChannelBreaker(runtime.context);
  if (breaker.isAllClear()) return runtime.channels.pick(group, model, excluded);
  return runtime.channels.pickAvailable(
    group,
    model,
    excluded,
    (channel) => breaker.blockedUntil(channel.id, model) === 0,
  );
}

/**
 * When every channel that could serve the model in these groups is open or resting: a 503 with Retry-After
 * at the soonest reopening, in the client's protocol (the scope's codec encodes it). Null when the model has
 * no such channel at all (then it is the ordinary "no available channel").
 */
export function describeCoolingChannels(
  runtime: RelayRuntime,
  groups: readonly string[],
  model: string,
  excluded: ReadonlySet<number>,
): RelayError | null {
  const breaker = getChannelBreaker(runtime.context);
  let soonest = Infinity;
  for (const group of groups) {
    for (const channel of runtime.channels.listCandidates(group, model, excluded)) {
      soonest = Math.min(soonest, breaker.blockedUntil(channel.id, model));
    }
  }
  if (soonest === Infinity || soonest === 0) return null;
  const seconds = Math.max(1, Math.ceil((soonest - Date.now()) / 1000));
  return new RelayError(
    503,
    `Every channel for model "${model}" is cooling down after upstream failures or resting after an upstream ` +
      `rate limit; try again in ${seconds} s`,
    'server_error',
    'channels_cooling_down',
    'model',
    { 'retry-after': String(seconds) },
  );
}
