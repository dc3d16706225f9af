import { relayErrors } from '../relay/relay-error';
import { convertToInputItems, type InputItem } from './convert-to-input-items';
import {
  getOwnedRow,
  readStoredConversation,
  requireResponseStorage,
  type ResponseStorageContext,
} from './response-storage';
import { readPageLimit } from '../relay/read-page-limit';

/** The query of GET /v1/responses/{id}/input_items, as the client sent it. */
export interface InputItemsQuery {
  limit?: string;
  order?: string;
  after?: string;
}

export interface InputItemList {
  object: 'list';
  data: InputItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function readOrder(order: string | undefined): 'asc' | 'desc' {
  if (order === undefined || order === 'desc' || order === 'asc') return order ?? 'desc';
  throw relayErrors.invalidRequest("order must be 'asc' or 'desc'", 'order');
}

/**
 * GET /v1/responses/{id}/input_items (https://platform.openai.com/docs/api-reference/responses/input-items):
 * the conversation the response answered (a previous_response_id's included, as the stored row keeps it),
 * newest first unless order=asc, `limit` items after the item `after`.
 */
export async function listInputItems(
  context: ResponseStorageContext,
  userId: number,
  id: string,
  query: InputItemsQuery,
): Promise<InputItemList> {
  requireResponseStorage(context.options);
  const limit = readPageLimit(query.limit, { default: DEFAULT_LIMIT, max: MAX_LIMIT });
  const order = readOrder(query.order);
  const row = await getOwnedRow(context, userId, id);
  const items = convertToInputItems(row.id, readStoredConversation(row.conversation).messages);
  if (order === 'desc') items.reverse();

  let start = 0;
  if (query.after !== undefined && query.after !== '') {
    const index = items.findIndex((item) => item.id === query.after);
    if (index < 0) {
      throw relayErrors.invalidRequest(`No input item with id '${query.after}' in response '${id}'`, 'after');
    }
    start = index + 1;
  }
  const data = items.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < items.length,
  };
}
