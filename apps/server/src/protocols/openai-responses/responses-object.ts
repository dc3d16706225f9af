import { nowSeconds } from '@gatehouse/shared';
import type { FinishReason } from '../../canonical/chat';
import { createResponsesId } from './responses-ids';
import {
  customToolInput,
  NO_TOOL_ORIGINS,
  toolSearchArguments,
  type ResponsesToolOrigins,
} from './convert-responses-tools';
import type {
  ResponsesEcho,
  ResponsesItemStatus,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesToolCallItem,
  ResponsesUsage,
} from './responses-types';

/** What one response is known by from its start: its id and time, and the request fields it repeats. */
export interface ResponsesContext {
  id: string;
  createdAt: number;
  echo: ResponsesEcho;
  /** the request's custom, namespaced and tool-search tools: their calls are written back in their own form */
  toolOrigins: ResponsesToolOrigins;
}

export function createResponsesContext(
  echo: ResponsesEcho,
  toolOrigins: ResponsesToolOrigins = NO_TOOL_ORIGINS,
): ResponsesContext {
  return { id: createResponsesId('resp'), createdAt: nowSeconds(), echo, toolOrigins };
}

/**
 * A tool call as its output item: a function_call; for a tool the request gave as a custom tool, a
 * custom_tool_call with the input the model wrote; for the client's tool search, a tool_search_call; a
 * namespace's tool by its own name and its namespace.
 */
export function createToolCallItem(
  origins: ResponsesToolOrigins,
  call: { id: string; name: string; arguments: string },
  status: ResponsesItemStatus,
): ResponsesToolCallItem {
  const origin = origins.get(call.name);
  const namespace = origin?.namespace !== undefined ? { namespace: origin.namespace } : {};
  if (origin?.kind === 'tool_search') {
    return {
      type: 'tool_search_call',
      id: createResponsesId('tsc'),
      call_id: call.id,
      arguments: toolSearchArguments(call.arguments),
      execution: 'client',
      status,
    };
  }
  if (origin?.kind === 'custom') {
    return {
      type: 'custom_tool_call',
      id: createResponsesId('ctc'),
      call_id: call.id,
      name: origin.name,
      input: customToolInput(call.arguments),
      status,
      ...namespace,
    };
  }
  return {
    type: 'function_call',
    id: createResponsesId('fc'),
    call_id: call.id,
    name: origin?.name ?? call.name,
    arguments: call.arguments,
    status,
    ...namespace,
  };
}

type Outcome = Pick<ResponsesObject, 'status' | 'incomplete_details'>;

/** A chat finish reason as the response's status: cut by the token limit or a filter is 'incomplete'. */
export function outcomeOf(finishReason: FinishReason | null): Outcome {
  if (finishReason === 'length') {
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  }
  if (finishReason === 'content_filter') {
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  }
  return { status: 'completed', incomplete_details: null };
}

/**
 * The response object. Its model is the one the client asked for (the name this gateway serves, whatever a
 * channel maps it to); `output_text` is left to the SDKs, which add it themselves.
 */
export function buildResponsesObject(
  context: ResponsesContext,
  state: Partial<Outcome> & {
    output: ResponsesOutputItem[];
    usage?: ResponsesUsage | null;
    error?: ResponsesObject['error'];
  },
): ResponsesObject {
  const status = state.status ?? 'in_progress';
  return {
    id: context.id,
    object: 'response',
    created_at: context.createdAt,
    status,
    ...(status === 'completed' && { completed_at: nowSeconds() }),
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incomplete_details ?? null,
    output: state.output,
    usage: state.usage ?? null,
    ...context.echo,
  };
}
