import { describe, expect, it } from 'vitest';
import { buildVertexHeaders, buildVertexUrl, vertexHost } from './vertex-endpoint';

const channelIn = (region: string, baseUrl = '') => ({ baseUrl, key: `${region}|acme-prod|{}` });

describe('where Vertex AI requests go', () => {
  it.each([
    ['us-central1', 'https://us-central1-aiplatform.googleapis.com'],
    ['europe-west4', 'https://europe-west4-aiplatform.googleapis.com'],
    ['global', 'https://aiplatform.googleapis.com'],
    ['us', 'https://aiplatform.us.rep.googleapis.com'],
    ['eu', 'https://aiplatform.eu.rep.googleapis.com'],
  ])('%s is served by %s', (region, host) => {
    expect(vertexHost(region)).toBe(host);
  });

  it('names the project, the location, the publisher and the model in the path', () => {
    expect(buildVertexUrl(channelIn('us-central1'), 'google', 'gemini-2.5-flash', 'generateContent')).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(buildVertexUrl(channelIn('global'), 'google', 'gemini-2.5-pro', 'streamGenerateContent')).toBe(
      'https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(
      buildVertexUrl(channelIn('us-east5'), 'anthropic', 'claude-sonnet-4-5@20250929', 'streamRawPredict'),
    ).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
  });

  it("takes Gemini API style names (models/…) as the model's id", () => {
    expect(buildVertexUrl(channelIn('global'), 'google', 'models/text-embedding-005', 'predict')).toBe(
      'https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/google/models/text-embedding-005:predict',
    );
  });

  it("goes to the channel's Base URL when it has one, with or without the API version", () => {
    expect(
      buildVertexUrl(
        channelIn('us-central1', 'http://127.0.0.1:8123'),
        'google',
        'gemini-2.5-flash',
        'predict',
      ),
    ).toBe(
      'http://127.0.0.1:8123/v1/projects/acme-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:predict',
    );
    expect(
      buildVertexUrl(
        channelIn('global', 'https://proxy.example/vertex/v1beta1'),
        'google',
        'gemini-2.5-flash',
        'generateContent',
      ),
    ).toBe(
      'https://proxy.example/vertex/v1beta1/projects/acme-prod/locations/global/publishers/google/models/gemini-2.5-flash:generateContent',
    );
  });

  it('signs in with the prepared access token, and cannot without one', () => {
    expect(buildVertexHeaders({ accessToken: 'ya29.token' })).toEqual({
      authorization: 'Bearer ya29.token',
      'content-type': 'application/json',
    });
    expect(() => buildVertexHeaders({})).toThrow('none was prepared');
  });
});
