import { nowSeconds } from '@gatehouse/shared';
import type { ChatMessage } from '../canonical/chat';
import type { Db } from '../db/database';
import type { OptionStore } from '../options/option-store';
import { convertResponsesInput } from '../protocols/openai-responses/convert-responses-input';
import type { ResponsesRequest } from '../protocols/openai-responses/convert-responses-request';
import type { ResponsesObject } from '../protocols/openai-responses/responses-types';
import { RelayError, relayErrors } from '../relay/relay-error';
import {
  deleteStoredResponse,
  findStoredResponse,
  insertStoredResponse,
  type StoredResponseRow,
} from './stored-response-repository';

/**
 * Stored Responses API responses, for previous_response_id and GET/DELETE /v1/responses/{id}. Off unless an
 * administrator turns on ResponsesStorageEnabled; kept ResponsesRetentionDays days. A response belongs to the
 * user of the key that created it: another user's id is answered as if it did not exist.
 *
 * Each row keeps the whole conversation before its response, so continuing one is a single read and survives
 * the pruning of older responses of the same conversation.
 */

/**
 * A stored conversation: its messages, and the tools its client-run tool searches found (tool_search_output
 * items), which stay offered on every later turn as they would in the conversation itself.
 */
export interface StoredConversation {
  messages: ChatMessage[];
  foundTools: unknown[];
}

/**
 * The `conversation` column: the messages as a JSON array, as every row was written before tool searches were
 * read; a conversation whose tool searches found tools is `{"messages": […], "found_tools": […]}`.
 */
export function readStoredConversation(column: string): StoredConversation {
  const stored = JSON.parse(column) as ChatMessage[] | { messages: ChatMessage[]; found_tools: unknown[] };
  return Array.isArray(stored)
    ? { messages: stored, foundTools: [] }
    : { messages: stored.messages, foundTools: stored.found_tools };
}

function writeStoredConversation({ messages, foundTools }: StoredConversation): string {
  return JSON.stringify(foundTools.length === 0 ? messages : { messages, found_tools: foundTools });
}

const DAY_SECONDS = 86_400;

export interface ResponseOwner {
  userId: number;
  tokenId: number;
}

export interface ResponseStorageContext {
  db: Db;
  options: OptionStore;
}

const howToTurnOn =
  'an administrator can turn on "Store Responses API responses" (option ResponsesStorageEnabled) under ' +
  'Settings → Operation';

export function isResponseStorageEnabled(options: OptionStore): boolean {
  return options.getBoolean('ResponsesStorageEnabled');
}

/** GET and DELETE /v1/responses/{id} with storage off: a 400 saying so, and how to turn it on. */
export function requireResponseStorage(options: OptionStore): void {
  if (isResponseStorageEnabled(options)) return;
  throw relayErrors.invalidRequest(
    `Stored responses are turned off on this gateway, so there is none to read or delete; ${howToTurnOn}`,
  );
}

/** Whether this response will be stored: storage is on and the client did not send `store: false`. */
export function shouldStoreResponse(options: OptionStore, request: ResponsesRequest): boolean {
  return request.shouldStore && isResponseStorageEnabled(options);
}

function oldestKept(options: OptionStore): number {
  return nowSeconds() - options.getNumber('ResponsesRetentionDays') * DAY_SECONDS;
}

const notFound = (id: string) =>
  new RelayError(
    404,
    `No response found with id '${id}'`,
    'invalid_request_error',
    'not_found',
    'response_id',
  );

/** The user's stored row, kept within the retention: a 404 as the API answers otherwise. */
export async function getOwnedRow(
  context: ResponseStorageContext,
  userId: number,
  id: string,
): Promise<StoredResponseRow> {
  const row = await findStoredResponse(context.db, id, userId, oldestKept(context.options));
  if (!row) throw notFound(id);
  return row;
}

/**
 * The conversation a previous_response_id continues: the messages before that response (without its
 * instructions, which the API does not carry over), then its output, and the tools its tool searches found.
 * A 400 naming the field when storage is off or the response is unknown to this user.
 */
export async function loadPreviousConversation(
  context: ResponseStorageContext,
  userId: number,
  id: string,
): Promise<StoredConversation> {
  if (!isResponseStorageEnabled(context.options)) {
    throw relayErrors.invalidRequest(
      'previous_response_id needs stored responses, which are turned off on this gateway: send the whole ' +
        `conversation in input instead, or ${howToTurnOn}`,
      'previous_response_id',
    );
  }
  const row = await findStoredResponse(context.db, id, userId, oldestKept(context.options));
  if (!row) {
    throw relayErrors.invalidRequest(
      `Previous response with id '${id}' not found`,
      'previous_response_id',
      'previous_response_not_found',
    );
  }
  const response = JSON.parse(row.response) as ResponsesObject;
  const { messages, foundTools } = readStoredConversation(row.conversation);
  return { messages: [...messages, ...convertResponsesInput(response.output).messages], foundTools };
}

/**
 * Keeps a finished response: the conversation it answered (previous and new input, and the tools found in
 * it) and the response itself.
 */
export async function saveResponse(
  context: ResponseStorageContext,
  owner: ResponseOwner,
  conversation: StoredConversation,
  response: ResponsesObject,
): Promise<void> {
  await insertStoredResponse(context.db, {
    id: response.id,
    user_id: owner.userId,
    token_id: owner.tokenId,
    model: response.model,
    conversation: writeStoredConversation(conversation),
    response: JSON.stringify(response),
    created_at: response.created_at,
  });
}

/** GET /v1/responses/{id}: the response object as it was sent. */
export async function getStoredResponse(
  context: ResponseStorageContext,
  userId: number,
  id: string,
): Promise<ResponsesObject> {
  requireResponseStorage(context.options);
  const row = await getOwnedRow(context, userId, id);
  return JSON.parse(row.response) as ResponsesObject;
}

/** DELETE /v1/responses/{id}, answered as the API does. */
export async function deleteResponse(
  context: ResponseStorageContext,
  userId: number,
  id: string,
): Promise<{ id: string; object: 'response'; deleted: true }> {
  requireResponseStorage(context.options);
  if (!(await deleteStoredResponse(context.db, id, userId))) throw notFound(id);
  return { id, object: 'response', deleted: true };
}
