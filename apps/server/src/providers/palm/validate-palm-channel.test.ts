import { ChannelType } from '@gatehouse/shared';
import { describe, expect, it } from 'vitest';
import { PALM_CHANNEL_REFUSED, validatePalmChannel } from './validate-palm-channel';

describe('PaLM channels, retired with the PaLM API', () => {
  it('refuses a new PaLM channel and a channel changed to PaLM, pointing to Gemini', () => {
    expect(validatePalmChannel(ChannelType.palm, null)).toBe(PALM_CHANNEL_REFUSED);
    expect(validatePalmChannel(ChannelType.palm, ChannelType.openai)).toBe(PALM_CHANNEL_REFUSED);
    expect(PALM_CHANNEL_REFUSED).toContain('15 August 2024');
    expect(PALM_CHANNEL_REFUSED).toContain('Google Gemini channel');
  });

  it('keeps a stored PaLM channel editable, and other types untouched', () => {
    expect(validatePalmChannel(ChannelType.palm, ChannelType.palm)).toBeNull();
    expect(validatePalmChannel(ChannelType.gemini, ChannelType.palm)).toBeNull();
    expect(validatePalmChannel(ChannelType.openai, null)).toBeNull();
  });
});
