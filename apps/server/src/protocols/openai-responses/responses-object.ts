import { nowSeconds } from '@gatehouse/shared';
import type { FinishReason } from '../../canonical/chat';
import { createResponsesId } from './responses-ids';
import type { ResponsesEcho, ResponsesObject, ResponsesOutputItem, ResponsesUsage } from './responses-types';

/** What one response is known by from its start: its id and time, and the request fields it repeats. */
export interface ResponsesContext {
  id: string;
  createdAt: number;
  echo: ResponsesEcho;
}

export function createResponsesContext(echo: ResponsesEcho): ResponsesContext {
  return { id: createResponsesId('resp'), createdAt: nowSeconds(), echo };
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
