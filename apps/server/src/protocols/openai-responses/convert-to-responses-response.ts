import type { AssistantMessage, ChatCompletion, ChatUsage } from '../../canonical/chat';
import { convertToResponsesUsage } from './convert-to-responses-usage';
import { createResponsesId } from './responses-ids';
import type { ResponsesToolOrigins } from './convert-responses-tools';
import {
  buildResponsesObject,
  createToolCallItem,
  outcomeOf,
  type ResponsesContext,
} from './responses-object';
import type {
  ResponsesItemStatus,
  ResponsesMessageItem,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesReasoningItem,
} from './responses-types';

export function createReasoningItem(thinking: string, encrypted?: string): ResponsesReasoningItem {
  return {
    type: 'reasoning',
    id: createResponsesId('rs'),
    summary: [],
    ...(thinking !== '' && { content: [{ type: 'reasoning_text', text: thinking }] }),
    ...(encrypted !== undefined && { encrypted_content: encrypted }),
    status: 'completed',
  };
}

function reasoningItemsOf(message: AssistantMessage): ResponsesReasoningItem[] {
  const items: ResponsesReasoningItem[] = [];
  if (message.reasoning_content) items.push(createReasoningItem(message.reasoning_content));
  if (!Array.isArray(message.content)) return items;
  for (const part of message.content) {
    if (part.type === 'thinking') items.push(createReasoningItem(part.thinking, part.signature));
    if (part.type === 'redacted_thinking') items.push(createReasoningItem('', part.data));
  }
  return items;
}

function textOf(message: AssistantMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function messageItemOf(message: AssistantMessage, status: ResponsesItemStatus): ResponsesMessageItem | null {
  const text = textOf(message);
  const content: ResponsesMessageItem['content'] = [];
  if (text !== '') content.push({ type: 'output_text', text, annotations: [] });
  if (message.refusal) content.push({ type: 'refusal', refusal: message.refusal });
  if (content.length === 0) return null;
  return { type: 'message', id: createResponsesId('msg'), role: 'assistant', status, content };
}

/**
 * An assistant message as output items, in the order the model produced them: reasoning (each thinking block
 * its own item, its signature as encrypted_content), the message, then one item per tool call (createToolCallItem).
 */
export function convertToResponsesOutput(
  message: AssistantMessage,
  status: ResponsesItemStatus,
  toolOrigins: ResponsesToolOrigins,
): ResponsesOutputItem[] {
  const output: ResponsesOutputItem[] = reasoningItemsOf(message);
  const item = messageItemOf(message, status);
  if (item) output.push(item);
  for (const call of message.tool_calls ?? []) {
    output.push(
      createToolCallItem(
        toolOrigins,
        { id: call.id, name: call.function.name, arguments: call.function.arguments },
        'completed',
      ),
    );
  }
  return output;
}

/**
 * A canonical chat completion as a Responses API response object
 * (https://platform.openai.com/docs/api-reference/responses/object). Only the first choice counts: the
 * Responses API has no `n`. `usage` is the completion's, or the one the relay counted when the upstream
 * reported none.
 */
export function convertToResponsesResponse(
  completion: ChatCompletion,
  context: ResponsesContext,
  usage: ChatUsage | undefined = completion.usage,
): ResponsesObject {
  const choice = completion.choices[0];
  const outcome = outcomeOf(choice?.finish_reason ?? null);
  const itemStatus = outcome.status === 'incomplete' ? 'incomplete' : 'completed';
  return buildResponsesObject(context, {
    ...outcome,
    output: choice ? convertToResponsesOutput(choice.message, itemStatus, context.toolOrigins) : [],
    usage: usage ? convertToResponsesUsage(usage) : null,
  });
}
