import { describe, expect, it } from 'vitest';
import { isClaudeModel, toVertexClaudeModelId } from './vertex-claude-model-id';

describe('Claude model ids on Vertex AI', () => {
  it.each([
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-v2@20241022'],
    ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet@20240620'],
    ['claude-3-5-haiku-20241022', 'claude-3-5-haiku@20241022'],
    ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet@20250219'],
    ['claude-3-haiku-20240307', 'claude-3-haiku@20240307'],
    ['claude-3-opus-20240229', 'claude-3-opus@20240229'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514'],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1@20250805'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5@20250929'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5@20251001'],
    ['claude-3-5-sonnet-latest', 'claude-3-5-sonnet-v2@20241022'],
    ['claude-3-7-sonnet-latest', 'claude-3-7-sonnet@20250219'],
  ])("maps Anthropic's %s to %s", (anthropicName, vertexId) => {
    expect(toVertexClaudeModelId(anthropicName)).toBe(vertexId);
  });

  it.each([
    'claude-3-5-sonnet-v2@20241022',
    'claude-sonnet-4-5@20250929',
    'claude-opus-4-6',
    'claude-sonnet-4-5',
  ])('passes %s unchanged (a Vertex id, or a name without a date)', (model) => {
    expect(toVertexClaudeModelId(model)).toBe(model);
  });

  it('tells Claude from Google models', () => {
    expect(isClaudeModel('claude-sonnet-4-5@20250929')).toBe(true);
    expect(isClaudeModel('gemini-2.5-flash')).toBe(false);
    expect(isClaudeModel('text-embedding-005')).toBe(false);
  });
});
