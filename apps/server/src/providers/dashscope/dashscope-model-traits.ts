/**
 * What DashScope's model names say. Vision models (qwen-vl-plus, qwen2.5-vl-72b-instruct, qvq-max …) are
 * served by the multimodal-generation endpoint and read images. A name ending in `-internet` asks for web
 * search, the convention the console's model lists inherited: the suffix is removed and enable_search set.
 */
const SEARCH_SUFFIX = '-internet';

export function isDashScopeVisionModel(model: string): boolean {
  const name = model.toLowerCase();
  return name.includes('-vl') || name.startsWith('qvq');
}

export function readDashScopeModelName(model: string): { model: string; enableSearch: boolean } {
  return model.endsWith(SEARCH_SUFFIX)
    ? { model: model.slice(0, -SEARCH_SUFFIX.length), enableSearch: true }
    : { model, enableSearch: false };
}
