import type { ReadResponse, SseEvent, StreamReaderOptions } from '../provider-types';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function toEvent(payload: unknown): SseEvent {
  const data = JSON.stringify(payload);
  return { event: null, data, raw: `data: ${data}` };
}

/**
 * A whole OpenAI answer (chat.completion or text_completion) as the stream chunks a client asked for, for
 * upstreams that answer JSON although the request said `stream: true`. Usage rides on a last, choice-less
 * chunk, as OpenAI sends it, when the client asked for it.
 */
export function openAIAnswerAsEvents(read: ReadResponse, options: StreamReaderOptions): SseEvent[] {
  const answer = read.answer;
  if (!isObject(answer) || !Array.isArray(answer.choices)) return [];
  const isChat = answer.object !== 'text_completion';
  const head = {
    id: answer.id,
    object: isChat ? 'chat.completion.chunk' : 'text_completion',
    created: answer.created,
    model: answer.model,
  };
  const events = answer.choices.filter(isObject).map((choice) => {
    const message = isObject(choice.message) ? choice.message : {};
    const toolCalls = Array.isArray(message.tool_calls)
      ? message.tool_calls.map((call, index) => (isObject(call) ? { index, ...call } : call))
      : undefined;
    const delta = { ...message, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    const part = isChat
      ? { index: choice.index, delta, finish_reason: choice.finish_reason }
      : { index: choice.index, text: choice.text, finish_reason: choice.finish_reason };
    return toEvent({ ...head, choices: [part] });
  });
  if (options.clientWantsUsage && isObject(answer.usage)) {
    events.push(toEvent({ ...head, choices: [], usage: answer.usage }));
  }
  return events;
}
