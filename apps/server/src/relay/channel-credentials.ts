import { CredentialRefusedError, type CredentialFetch } from '../canonical/translation';
import type { ChannelCredentials, ProviderAdapter } from '../providers/provider-types';
import type { RelayChannel } from './channel-cache';
import type { RelayRuntime } from './relay-runtime';
import { readUpstreamBody, sendUpstream } from './upstream-call';
import { describeCredentialFailure, type AttemptOutcome } from './upstream-failure';

/** How long a token request may take when RELAY_TIMEOUT sets no limit. */
const TOKEN_TIMEOUT_MS = 30_000;

/** One credential per vendor account: the same key behind two channels shares its token. */
function credentialKey(channel: RelayChannel): string {
  const { baseUrl, key, other, config } = channel.credentials;
  return JSON.stringify([channel.type, baseUrl, key, other, config]);
}

/** Drops the channel's cached access token (the upstream refused it): the next request fetches a new one. */
export function forgetChannelCredential(runtime: RelayRuntime, channel: RelayChannel): void {
  runtime.credentials.forget(credentialKey(channel));
}

/**
 * The channel's credentials as the adapter's requests need them: with a short-lived access token when the
 * adapter derives one (Vertex, Baidu), from the runtime's cache or fetched once for all waiting requests.
 * The token request is not tied to one client: a client that leaves does not cancel it for the others.
 */
export async function prepareChannelCredentials(
  runtime: RelayRuntime,
  channel: RelayChannel,
  adapter: ProviderAdapter,
): Promise<AttemptOutcome<ChannelCredentials>> {
  if (!adapter.prepareCredential) return { ok: true, value: channel.credentials };
  const timeout = runtime.context.config.relayTimeoutSeconds * 1000 || TOKEN_TIMEOUT_MS;
  const fetch: CredentialFetch = async (request) => {
    const response = await sendUpstream(runtime, request, AbortSignal.timeout(timeout));
    return { status: response.statusCode, body: await readUpstreamBody(response) };
  };
  try {
    const accessToken = await runtime.credentials.getAccessToken(credentialKey(channel), () =>
      // Checked above; the closure runs later, when TypeScript no longer knows it.
      adapter.prepareCredential!(channel.credentials, fetch),
    );
    return { ok: true, value: { ...channel.credentials, accessToken } };
  } catch (error) {
    const isRefused = error instanceof CredentialRefusedError;
    return {
      ok: false,
      failure: describeCredentialFailure(error, isRefused, {
        typeName: channel.typeName,
        key: channel.credentials.key,
      }),
    };
  }
}
