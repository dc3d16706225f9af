import { ChannelType } from '@gatehouse/shared';

/**
 * AI Proxy (aiproxy.io) publishes no reference for its knowledge-base ("library") API: neither its ask
 * endpoint nor the shape of its answers and stream can be checked, so Gatehouse does not guess them. Its
 * models are served by the "proxy AI Proxy" channel type (OpenAI-compatible).
 */
export const AI_PROXY_LIBRARY_UNAVAILABLE_REASON =
  'AI Proxy publishes no reference for its knowledge-base API, so Gatehouse cannot call it faithfully: for AI Proxy\'s models use a "proxy AI Proxy" channel';

/** The refusal of a channel that would newly be an AI Proxy knowledge-base channel. */
export const AI_PROXY_LIBRARY_CHANNEL_REFUSED =
  'AI Proxy publishes no reference for its knowledge-base API, so a "knowledge base AI Proxy" channel cannot work reliably: for AI Proxy\'s models create a "proxy AI Proxy" channel instead';

/**
 * Why a channel of `type` cannot be saved, or null: a channel becoming an AI Proxy knowledge-base channel is
 * refused; one stored as such stays editable (to rename, disable or change its type).
 */
export function validateAiProxyLibraryChannel(type: number, storedType: number | null): string | null {
  return type === ChannelType.aiProxyLibrary && storedType !== ChannelType.aiProxyLibrary
    ? AI_PROXY_LIBRARY_CHANNEL_REFUSED
    : null;
}
