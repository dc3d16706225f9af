import type {
  AssistantContentPart,
  AssistantMessage,
  ChatMessage,
  ImagePart,
  TextPart,
  ToolCall,
  ToolMessage,
  UserContentPart,
} from '../../canonical/chat';
import { codeExecutionText } from '../../providers/gemini/convert-gemini-response';
import { encodeGeminiToolCallId } from '../../providers/gemini/gemini-tool-call-id';
import { convertGeminiInlineData, convertGeminiMedia, textPart } from './convert-gemini-parts';
import {
  invalidField,
  isJsonObject,
  missingField,
  readList,
  readObject,
  readOptionalBoolean,
  readOptionalObject,
  readOptionalString,
  readString,
  type Json,
} from './gemini-request-fields';

const REQUEST = 'GenerateContentRequest';

/**
 * The function calls of the conversation so far, so each functionResponse answers its call under the call's
 * canonical id: by Gemini's id when both carry one (Gemini 3), else the oldest unanswered call of that name.
 */
class CallLedger {
  private readonly byGeminiId = new Map<string, string>();
  private readonly unansweredByName = new Map<string, string[]>();

  add(geminiId: string, canonicalId: string, name: string): void {
    this.byGeminiId.set(geminiId, canonicalId);
    const unanswered = this.unansweredByName.get(name) ?? [];
    unanswered.push(canonicalId);
    this.unansweredByName.set(name, unanswered);
  }

  answer(geminiId: string | undefined, name: string): string {
    const unanswered = this.unansweredByName.get(name) ?? [];
    const byId = geminiId === undefined ? undefined : this.byGeminiId.get(geminiId);
    const id = byId ?? unanswered[0] ?? geminiId ?? `call_${name}`;
    const at = unanswered.indexOf(id);
    if (at >= 0) unanswered.splice(at, 1);
    return id;
  }
}

function appendText(parts: AssistantContentPart[], text: string): void {
  const last = parts.at(-1);
  if (last?.type === 'text') last.text += text;
  else parts.push(textPart(text));
}

/** Consecutive thought parts are one thinking block until a signature closes it (Gemini streams them in pieces). */
function appendThought(parts: AssistantContentPart[], text: string, signature: string | undefined): void {
  const last = parts.at(-1);
  if (last?.type === 'thinking' && last.signature === undefined) {
    last.thinking += text;
    if (signature) last.signature = signature;
  } else parts.push({ type: 'thinking', thinking: text, ...(signature ? { signature } : {}) });
}

/**
 * A model turn as an assistant message. A signature on a text part closes the thinking before it, or becomes
 * an empty thinking part the Gemini translator puts back on that text. Media the model generated (images) has
 * no place in a canonical assistant message and is left out.
 */
function convertModelTurn(
  parts: unknown[],
  path: string,
  turn: number,
  calls: CallLedger,
): AssistantMessage | null {
  const content: AssistantContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  parts.forEach((value, index) => {
    const at = `${path}[${index}]`;
    const part = readObject(value, at);
    const signature = readOptionalString(part.thoughtSignature, `${at}.thoughtSignature`);
    if (part.functionCall !== undefined) {
      const call = readObject(part.functionCall, `${at}.functionCall`);
      const name = readString(call.name, `${at}.functionCall.name`);
      const args = readOptionalObject(call.args, `${at}.functionCall.args`) ?? {};
      const geminiId =
        readOptionalString(call.id, `${at}.functionCall.id`) || `call_${turn}_${toolCalls.length}`;
      const id = encodeGeminiToolCallId(geminiId, signature);
      calls.add(geminiId, id, name);
      toolCalls.push({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
      return;
    }
    const partText = part.text === undefined ? codeExecutionText(part) : readString(part.text, `${at}.text`);
    // A signature may come on a part of its own, without text.
    const text = partText ?? (signature ? '' : null);
    if (text === null) return;
    if (readOptionalBoolean(part.thought, `${at}.thought`)) {
      appendThought(content, text, signature);
      return;
    }
    if (signature) {
      const last = content.at(-1);
      if (last?.type === 'thinking' && last.signature === undefined) last.signature = signature;
      else content.push({ type: 'thinking', thinking: '', signature });
    }
    if (text !== '') appendText(content, text);
  });
  if (content.length === 0 && toolCalls.length === 0) return null;
  const hasThinking = content.some((part) => part.type === 'thinking');
  const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const message: AssistantMessage = {
    role: 'assistant',
    content: hasThinking ? content : text === '' && toolCalls.length > 0 ? null : text,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

/**
 * A function's result as a tool message: `{output: "…"}` and `{error: "…"}` (the keys Gemini documents) as
 * their text, any other object as its JSON; images in `parts` (Gemini 3 multimodal results) after it.
 */
function convertFunctionResponse(value: unknown, path: string, calls: CallLedger): ToolMessage {
  const response = readObject(value, path);
  const name = readString(response.name, `${path}.name`);
  const id = readOptionalString(response.id, `${path}.id`) || undefined;
  const result = readOptionalObject(response.response, `${path}.response`) ?? {};
  const keys = Object.keys(result);
  const isError = keys.length === 1 && keys[0] === 'error';
  const only = keys.length === 1 ? result[keys[0]] : undefined;
  const text =
    (keys[0] === 'output' || isError) && typeof only === 'string'
      ? only
      : JSON.stringify(isError ? only : result);
  const message: ToolMessage = { role: 'tool', tool_call_id: calls.answer(id, name), content: text };
  if (isError) message.is_error = true;
  const media = (response.parts === undefined ? [] : readList(response.parts, `${path}.parts`)).flatMap(
    (part, index): ImagePart[] => {
      const inline = isJsonObject(part) ? part.inlineData : undefined;
      if (inline === undefined) return [];
      const converted = convertGeminiInlineData(inline, `${path}.parts[${index}].inlineData`);
      return converted.type === 'image_url' ? [converted] : [];
    },
  );
  if (media.length > 0) message.content = [textPart(text), ...media];
  return message;
}

/** A user turn: its function results first (each a tool message), then what the user said. */
function convertUserTurn(parts: unknown[], path: string, calls: CallLedger): ChatMessage[] {
  const results: ToolMessage[] = [];
  const content: UserContentPart[] = [];
  parts.forEach((value, index) => {
    const at = `${path}[${index}]`;
    const part = readObject(value, at);
    if (part.functionResponse !== undefined) {
      results.push(convertFunctionResponse(part.functionResponse, `${at}.functionResponse`, calls));
      return;
    }
    if (part.text !== undefined) {
      const text = readString(part.text, `${at}.text`);
      if (text !== '') content.push(textPart(text));
      return;
    }
    const media = convertGeminiMedia(part, at);
    if (media) content.push(media);
  });
  const messages: ChatMessage[] = [...results];
  if (content.length === 1 && content[0].type === 'text')
    messages.push({ role: 'user', content: content[0].text });
  else if (content.length > 0) messages.push({ role: 'user', content });
  return messages;
}

function readParts(content: Json, path: string): unknown[] {
  if (content.parts === undefined) throw missingField(REQUEST, `${path}.parts`);
  return readList(content.parts, `${path}.parts`);
}

/** systemInstruction's text parts as the system message. */
function convertSystemInstruction(value: unknown): ChatMessage | null {
  const instruction = readObject(value, 'systemInstruction');
  const texts: TextPart[] = readParts(instruction, 'systemInstruction').flatMap((part, index) => {
    const at = `systemInstruction.parts[${index}]`;
    const text = readOptionalString(readObject(part, at).text, `${at}.text`);
    return text ? [textPart(text)] : [];
  });
  if (texts.length === 0) return null;
  return { role: 'system', content: texts.length === 1 ? texts[0].text : texts };
}

/**
 * `systemInstruction` and `contents` (https://ai.google.dev/api/generate-content#request-body) as canonical
 * messages: role `model` is the assistant, `user` (or none) the user, and the user turn that carries function
 * responses becomes tool messages answering the calls of the turn before.
 */
export function convertGeminiContents(contents: unknown, systemInstruction: unknown): ChatMessage[] {
  if (contents === undefined || contents === null) throw missingField(REQUEST, 'contents');
  const turns = readList(contents, 'contents');
  if (turns.length === 0) throw missingField(REQUEST, 'contents');
  const messages: ChatMessage[] = [];
  if (systemInstruction !== undefined && systemInstruction !== null) {
    const system = convertSystemInstruction(systemInstruction);
    if (system) messages.push(system);
  }
  const calls = new CallLedger();
  turns.forEach((value, index) => {
    const path = `contents[${index}]`;
    const content = readObject(value, path);
    const role = content.role ?? 'user';
    const parts = readParts(content, path);
    if (role === 'model') {
      const message = convertModelTurn(parts, `${path}.parts`, index, calls);
      if (message) messages.push(message);
    } else if (role === 'user') {
      messages.push(...convertUserTurn(parts, `${path}.parts`, calls));
    } else {
      throw invalidField(`${path}.role`, role, '"user" or "model"');
    }
  });
  return messages;
}
