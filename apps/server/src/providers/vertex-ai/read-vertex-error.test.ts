import { describe, expect, it } from 'vitest';
import { readVertexFixture } from '../../../test/support/vertex-stand-in';
import { readVertexError } from './read-vertex-error';

describe("Vertex AI's errors", () => {
  it.each([
    ['error-unauthenticated.json', 401, 'authentication', 'UNAUTHENTICATED', 'ACCESS_TOKEN_TYPE_UNSUPPORTED'],
    ['error-permission-denied.json', 403, 'permission', 'PERMISSION_DENIED', 'IAM_PERMISSION_DENIED'],
    ['error-quota-exceeded.json', 429, 'rate_limit', 'RESOURCE_EXHAUSTED', '429'],
    ['error-model-not-found.json', 404, 'not_found', 'NOT_FOUND', '404'],
  ])("reads Google's error object %s (%i) as %s", (fixture, status, kind, type, code) => {
    const details = readVertexError(readVertexFixture(fixture), status);
    expect(details).toMatchObject({ kind, type, code });
    expect(details.message).toBe(JSON.parse(readVertexFixture(fixture).toString('utf8')).error.message);
  });

  it.each([
    ['error-claude-invalid-request.json', 400, 'invalid_request', 'invalid_request_error'],
    ['error-claude-overloaded.json', 529, 'overloaded', 'overloaded_error'],
  ])("reads Claude's own error %s (%i) in Anthropic's shape as %s", (fixture, status, kind, type) => {
    const details = readVertexError(readVertexFixture(fixture), status);
    expect(details).toMatchObject({ kind, type, code: type });
    expect(details.message).toBe(JSON.parse(readVertexFixture(fixture).toString('utf8')).error.message);
  });

  it('reads an error in a JSON array (a stream asked for without alt=sse)', () => {
    const body = Buffer.from(`[${readVertexFixture('error-quota-exceeded.json').toString('utf8')}]`);
    expect(readVertexError(body, 429)).toMatchObject({ kind: 'rate_limit', type: 'RESOURCE_EXHAUSTED' });
  });

  it("keeps the start of an answer that is neither vendor's JSON, its kind from the status", () => {
    const details = readVertexError(readVertexFixture('error-html-bad-gateway.txt'), 502);
    expect(details.kind).toBe('server');
    expect(details.message).toContain('502 Bad Gateway');
    expect(readVertexError(Buffer.alloc(0), 503)).toMatchObject({ kind: 'overloaded', message: 'HTTP 503' });
  });
});
