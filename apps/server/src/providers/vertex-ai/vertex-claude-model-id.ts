/**
 * Anthropic names whose Vertex AI id is not the name with `@` before its date
 * (https://docs.anthropic.com/en/api/claude-on-vertex-ai#api-model-names): the October 2024 Claude 3.5
 * Sonnet is the second model of that name on Vertex, and Vertex has no `-latest` aliases.
 */
const VERTEX_IDS: Readonly<Record<string, string>> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
  'claude-3-5-sonnet-latest': 'claude-3-5-sonnet-v2@20241022',
  'claude-3-5-haiku-latest': 'claude-3-5-haiku@20241022',
  'claude-3-7-sonnet-latest': 'claude-3-7-sonnet@20250219',
  'claude-3-opus-latest': 'claude-3-opus@20240229',
};

const DATED = /^(claude-[a-z0-9-]+?)-(\d{8})$/;

/** Claude models are Anthropic's on Vertex AI (publishers/anthropic); every other model is Google's. */
export function isClaudeModel(model: string): boolean {
  return /^claude-/i.test(model);
}

/**
 * The Vertex AI id of a Claude model: Anthropic's dated names (claude-sonnet-4-5-20250929) become Vertex's
 * `name@date` (claude-sonnet-4-5@20250929), so one model mapping works for Anthropic and Vertex channels.
 * Vertex ids (with `@`) and undated names pass unchanged.
 */
export function toVertexClaudeModelId(model: string): string {
  if (model.includes('@')) return model;
  const known = VERTEX_IDS[model];
  if (known) return known;
  const dated = DATED.exec(model);
  return dated ? `${dated[1]}@${dated[2]}` : model;
}
