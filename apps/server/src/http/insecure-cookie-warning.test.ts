import { describe, expect, it } from 'vitest';
import { findInsecureCookieWarning } from './insecure-cookie-warning';

describe('findInsecureCookieWarning', () => {
  it('warns, naming TRUST_PROXY, when the public address is https and no proxy is trusted', () => {
    const warning = findInsecureCookieWarning('https://gate.example.com', false);
    expect(warning).toContain('TRUST_PROXY');
    expect(warning).toContain('https://gate.example.com');
    expect(warning).toContain('Secure');
    expect(findInsecureCookieWarning(' HTTPS://gate.example.com/ ', false)).toContain('TRUST_PROXY');
  });

  it('stays quiet with a trusted proxy, a plain http address, or no address yet', () => {
    expect(findInsecureCookieWarning('https://gate.example.com', true)).toBeNull();
    expect(findInsecureCookieWarning('https://gate.example.com', 1)).toBeNull();
    expect(findInsecureCookieWarning('https://gate.example.com', ['10.0.0.0/8'])).toBeNull();
    expect(findInsecureCookieWarning('http://127.0.0.1:3000', false)).toBeNull();
    expect(findInsecureCookieWarning('', false)).toBeNull();
  });
});
