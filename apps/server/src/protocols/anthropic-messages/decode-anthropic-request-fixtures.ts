/** The shortest valid conversation, for the tests of decode-anthropic-request. */
export const hello = [{ role: 'user', content: 'hi' }];
