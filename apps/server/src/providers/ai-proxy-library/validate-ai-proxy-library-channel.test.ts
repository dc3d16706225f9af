import { ChannelType } from '@gatehouse/shared';
import { describe, expect, it } from 'vitest';
import {
  AI_PROXY_LIBRARY_CHANNEL_REFUSED,
  validateAiProxyLibraryChannel,
} from './validate-ai-proxy-library-channel';

describe('AI Proxy knowledge-base channels, whose API has no public reference', () => {
  it('refuses a new one and a channel changed to it, pointing to the "proxy AI Proxy" type', () => {
    expect(validateAiProxyLibraryChannel(ChannelType.aiProxyLibrary, null)).toBe(
      AI_PROXY_LIBRARY_CHANNEL_REFUSED,
    );
    expect(validateAiProxyLibraryChannel(ChannelType.aiProxyLibrary, ChannelType.aiProxy)).toBe(
      AI_PROXY_LIBRARY_CHANNEL_REFUSED,
    );
    expect(AI_PROXY_LIBRARY_CHANNEL_REFUSED).toContain('"proxy AI Proxy" channel');
  });

  it('keeps a stored one editable, and other types untouched', () => {
    expect(validateAiProxyLibraryChannel(ChannelType.aiProxyLibrary, ChannelType.aiProxyLibrary)).toBeNull();
    expect(validateAiProxyLibraryChannel(ChannelType.aiProxy, null)).toBeNull();
  });
});
