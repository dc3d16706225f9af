/**
 * What a Claude model accepts, where Claude generations differ in ways a translator must respect
 * (https://docs.anthropic.com/en/docs/about-claude/models/migration-guide):
 * - extended thinking with budget_tokens came with Claude 3.7; Opus 4.6 and Sonnet 4.6 add adaptive thinking
 *   and deprecate budgets; Opus 4.7 and later (and the Mythos and Fable models) refuse budgets and take only
 *   adaptive thinking, steered by output_config.effort;
 * - Opus 4.7 and later refuse temperature, top_p and top_k;
 * - Opus 4.1 and the Claude 4.5 models refuse temperature and top_p together;
 * - structured outputs (output_config.format, strict tools) exist from the Claude 4.5 models on.
 */
export interface AnthropicModelTraits {
  thinking: 'none' | 'budget' | 'budget-or-adaptive' | 'adaptive';
  /** temperature, top_p and top_k are accepted */
  hasSampling: boolean;
  /** temperature and top_p are refused together */
  isOneSampler: boolean;
  hasStructuredOutputs: boolean;
}

/**
 * A model id this gateway cannot place (a proxy's alias): the client's options are sent as they are and the
 * vendor judges them.
 */
export const UNKNOWN_MODEL_TRAITS: AnthropicModelTraits = {
  thinking: 'budget',
  hasSampling: true,
  isOneSampler: false,
  hasStructuredOutputs: true,
};

/** claude-opus-4-1-20250805, claude-sonnet-4-20250514 (no minor: the date has more digits), claude-mythos-5 */
const CURRENT_NAME = /claude-(opus|sonnet|haiku|mythos|fable)-(\d+)(?:-(\d)(?!\d))?/;
/** claude-3-5-sonnet-20241022, claude-3-haiku-20240307 */
const CLAUDE_3_NAME = /claude-(\d)(?:-(\d))?-(opus|sonnet|haiku)/;
const OLDER_NAME = /claude-(2|instant)/;

function readVersion(model: string): { family: string; version: number } | null {
  const current = CURRENT_NAME.exec(model);
  if (current) return { family: current[1], version: Number(current[2]) + Number(current[3] ?? 0) / 10 };
  const claude3 = CLAUDE_3_NAME.exec(model);
  if (claude3) return { family: claude3[3], version: Number(claude3[1]) + Number(claude3[2] ?? 0) / 10 };
  if (OLDER_NAME.test(model)) return { family: 'legacy', version: 2 };
  // claude-mythos-preview: released with Opus 4.7's rules
  if (/claude-(mythos|fable)/.test(model)) return { family: 'mythos', version: 4.7 };
  return null;
}

/** The traits of a model id, with or without a date, a vendor prefix (anthropic.) or a version suffix (-v1). */
export function getAnthropicModelTraits(model: string): AnthropicModelTraits {
  const read = readVersion(model.toLowerCase());
  if (!read) return UNKNOWN_MODEL_TRAITS;
  const { version } = read;
  const isAdaptiveOnly = version >= 4.7 || read.family === 'mythos' || read.family === 'fable';
  return {
    thinking: isAdaptiveOnly
      ? 'adaptive'
      : version >= 4.6
        ? 'budget-or-adaptive'
        : version >= 3.7
          ? 'budget'
          : 'none',
    hasSampling: !isAdaptiveOnly,
    isOneSampler: !isAdaptiveOnly && version >= 4.1,
    hasStructuredOutputs: version >= 4.5,
  };
}
