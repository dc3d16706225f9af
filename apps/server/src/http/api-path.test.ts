import { describe, expect, it } from 'vitest';
import { isManagementApiUrl, isRelayUrl } from './api-path';

describe('isManagementApiUrl', () => {
  it.each([
    ['/api', true],
    ['/api/', true],
    ['/api/user/self', true],
    ['/api?x=1', true],
    ['/api/log/?p=2', true],
    ['/apis', false],
    ['/apiary/x', false],
    ['/', false],
    ['/v1/api/x', false],
    ['/console?next=/api/', false],
  ])('%s → %s', (url, expected) => {
    expect(isManagementApiUrl(url)).toBe(expected);
  });
});

describe('isRelayUrl', () => {
  it.each([
    ['/v1', true],
    ['/v1/chat/completions', true],
    ['/v1?x=1', true],
    ['/v1beta', true],
    ['/v1beta/models/gemini-2.5-pro:generateContent?key=k', true],
    ['/dashboard/billing/usage', true],
    ['/v10/x', false],
    ['/v1betas', false],
    ['/dashboard', false],
    ['/dashboard?x=/', false],
    ['/api/v1/x', false],
    ['/', false],
  ])('%s → %s', (url, expected) => {
    expect(isRelayUrl(url)).toBe(expected);
  });
});
