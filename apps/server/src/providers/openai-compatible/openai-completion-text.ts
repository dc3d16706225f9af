/**
 * The generated text of OpenAI-format answers, for counting completion tokens when the upstream reports no
 * usage. Everything the model produced counts: content, reasoning (DeepSeek's `reasoning_content`), refusals
 * and tool calls (name and arguments).
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

function toolCallsText(toolCalls: unknown): string {
  if (!Array.isArray(toolCalls)) return '';
  let text = '';
  for (const call of toolCalls) {
    const fn = isObject(call) ? call.function : null;
    if (!isObject(fn)) continue;
    if (typeof fn.name === 'string') text += fn.name;
    if (typeof fn.arguments === 'string') text += fn.arguments;
  }
  return text;
}

/** A chat message or a stream delta. */
function messageText(message: unknown): string {
  if (!isObject(message)) return '';
  return (
    textOf(message.content) +
    textOf(message.reasoning_content) +
    textOf(message.refusal) +
    toolCallsText(message.tool_calls) +
    (isObject(message.function_call) ? toolCallsText([{ function: message.function_call }]) : '')
  );
}

/** The text of a whole answer or of one stream chunk, chat (`message` / `delta`) or completions (`text`). */
export function extractCompletionText(answer: unknown): string {
  if (!isObject(answer) || !Array.isArray(answer.choices)) return '';
  let text = '';
  for (const choice of answer.choices) {
    if (!isObject(choice)) continue;
    if (typeof choice.text === 'string') text += choice.text;
    text += messageText(choice.message) + messageText(choice.delta);
  }
  return text;
}
