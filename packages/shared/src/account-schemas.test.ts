import { describe, expect, it } from 'vitest';
import {
  buildGitHubAuthorizeUrl,
  buildLarkAuthorizeUrl,
  emailRequestQuerySchema,
  larkRedirectUri,
} from './account-schemas';

describe('OAuth authorise URLs', () => {
  it('sends GitHub the client id and the state, encoded', () => {
    expect(buildGitHubAuthorizeUrl('Iv1.abc', 'st&te')).toBe(
      'https://github.com/login/oauth/authorize?client_id=Iv1.abc&state=st%26te&scope=user%3Aemail',
    );
    expect(buildGitHubAuthorizeUrl('Iv1.abc', 'xyz', 'http://127.0.0.1:9000/')).toBe(
      'http://127.0.0.1:9000/login/oauth/authorize?client_id=Iv1.abc&state=xyz&scope=user%3Aemail',
    );
  });

  it('sends Lark the redirect URI the server will use for the exchange', () => {
    expect(buildLarkAuthorizeUrl('cli_1', 'https://gate.example.com/', 'xyz')).toBe(
      'https://accounts.feishu.cn/open-apis/authen/v1/authorize?client_id=cli_1&response_type=code' +
        '&redirect_uri=https%3A%2F%2Fgate.example.com%2Foauth%2Flark&state=xyz',
    );
    expect(larkRedirectUri('https://gate.example.com')).toBe('https://gate.example.com/oauth/lark');
  });
});

describe('emailRequestQuerySchema', () => {
  it('lower-cases the address and refuses a malformed one', () => {
    expect(emailRequestQuerySchema.parse({ email: ' Ann@Example.COM ' })).toEqual({
      email: 'ann@example.com',
      turnstile: '',
    });
    expect(emailRequestQuerySchema.safeParse({ email: 'ann@' }).success).toBe(false);
  });
});
