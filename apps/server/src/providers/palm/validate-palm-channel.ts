import { ChannelType } from '@gatehouse/shared';

/**
 * Google decommissioned the PaLM API on 15 August 2024 (https://ai.google.dev/palm_docs/deprecation): no
 * PaLM model (chat-bison-001, text-bison-001) answers any more, and Gemini is its replacement. PaLM on
 * Vertex AI is a different API, not this channel type's.
 */
export const PALM_RETIRED_REASON =
  'Google retired the PaLM API on 15 August 2024 (https://ai.google.dev/palm_docs/deprecation), so Google PaLM2 channels cannot answer any more: use a Google Gemini channel instead';

/** The refusal of a channel that would newly be a PaLM channel. */
export const PALM_CHANNEL_REFUSED =
  'Google retired the PaLM API on 15 August 2024, so a Google PaLM2 channel cannot work: create a Google Gemini channel instead (Gemini models such as gemini-2.5-flash replace chat-bison-001 and text-bison-001)';

/**
 * Why a channel of `type` cannot be saved, or null. A channel becoming a PaLM channel (a new one, or another
 * type changed to PaLM) is refused; one stored as PaLM stays editable, so it can be renamed, disabled or
 * moved to Gemini.
 */
export function validatePalmChannel(type: number, storedType: number | null): string | null {
  return type === ChannelType.palm && storedType !== ChannelType.palm ? PALM_CHANNEL_REFUSED : null;
}
