import type { RelayChannel } from './channel-cache';
import { relayErrors } from './relay-error';
import { readPageLimit } from './read-page-limit';

/**
 * GET /v1/models for Anthropic's clients (https://docs.anthropic.com/en/api/models-list), which send an
 * anthropic-version header: models as Anthropic's ModelInfo, paged with limit, after_id and before_id.
 * The gateway knows no release dates or capabilities: created_at is when the serving channel was added, the
 * display name is the id, and what it cannot know is null.
 */

export interface AnthropicModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
  capabilities: null;
  deprecated_at: null;
  lifecycle: 'active';
  line: null;
  max_input_tokens: null;
  max_tokens: null;
  retires_at: null;
}

export interface AnthropicModelPageQuery {
  limit?: string;
  after_id?: string;
  before_id?: string;
}

export interface AnthropicModelPage {
  data: AnthropicModelInfo[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

export function isAnthropicClient(headers: Record<string, unknown>): boolean {
  return typeof headers['anthropic-version'] === 'string';
}

export function toAnthropicModel(id: string, channel: RelayChannel): AnthropicModelInfo {
  return {
    type: 'model',
    id,
    display_name: id,
    created_at: new Date(channel.createdTime * 1000).toISOString(),
    capabilities: null,
    deprecated_at: null,
    lifecycle: 'active',
    line: null,
    max_input_tokens: null,
    max_tokens: null,
    retires_at: null,
  };
}

function indexOf(ids: string[], id: string, param: string): number {
  const index = ids.indexOf(id);
  if (index < 0) throw relayErrors.invalidRequest(`No model with id '${id}' in the list`, param);
  return index;
}

/** One page of `models` (in list order): `limit` after after_id, or the `limit` just before before_id. */
export function pageAnthropicModels(
  models: Array<[string, RelayChannel]>,
  query: AnthropicModelPageQuery,
): AnthropicModelPage {
  const limit = readPageLimit(query.limit, { default: DEFAULT_LIMIT, max: MAX_LIMIT });
  const ids = models.map(([id]) => id);
  let start = 0;
  let end = Math.min(limit, models.length);
  if (query.before_id) {
    end = indexOf(ids, query.before_id, 'before_id');
    start = Math.max(0, end - limit);
  } else if (query.after_id) {
    start = indexOf(ids, query.after_id, 'after_id') + 1;
    end = Math.min(start + limit, models.length);
  }
  const data = models.slice(start, end).map(([id, channel]) => toAnthropicModel(id, channel));
  return {
    data,
    has_more: query.before_id ? start > 0 : end < models.length,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  };
}
