import { randomBytes } from 'node:crypto';
import type { ChatChunk, ChatDelta, ChatUsage, FinishReason, ToolCallDelta } from '../../canonical/chat';
import { createReasoningItem } from './convert-to-responses-response';
import { convertToResponsesUsage } from './convert-to-responses-usage';
import { createResponsesId } from './responses-ids';
import { customToolInput, toolSearchArguments } from './convert-responses-tools';
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
  ResponsesOutputText,
  ResponsesReasoningItem,
  ResponsesRefusal,
  ResponsesStreamEvent,
  ResponsesStreamEventBody,
  ResponsesToolCallItem,
} from './responses-types';

interface OpenReasoning {
  kind: 'reasoning';
  outputIndex: number;
  item: ResponsesReasoningItem;
  text: string;
}

interface OpenMessage {
  kind: 'message';
  outputIndex: number;
  item: ResponsesMessageItem;
  /** the part receiving deltas; text parts and refusal parts alternate as the deltas do */
  part: ResponsesOutputText | ResponsesRefusal | null;
}

interface OpenCall {
  outputIndex: number;
  item: ResponsesToolCallItem;
  /** the arguments so far of a custom tool's call ({"input": …}) or a tool search: read once they are whole */
  wholeArguments: string;
}

/**
 * Canonical chat chunks in, Responses API stream events out
 * (https://platform.openai.com/docs/api-reference/responses-streaming), one chunk at a time: response.created
 * and response.in_progress first; each output item opened (output_item.added, content_part.added), filled
 * (output_text / refusal / reasoning_text / function_call_arguments deltas) and closed (the .done events) as the
 * chunks move from thinking to text to tool calls; response.completed, .incomplete or .failed last, with the
 * whole response. Only the first choice counts (the API has no `n`). Items are kept for that last event and
 * for storage; nothing waits for the end of the answer.
 */
export class ResponsesStreamEncoder {
  private sequence = 0;
  private isStarted = false;
  private readonly output: ResponsesOutputItem[] = [];
  /** the reasoning or message item receiving deltas; tool calls stay open beside it until the end */
  private open: OpenReasoning | OpenMessage | null = null;
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: FinishReason | null = null;
  private usage: ChatUsage | null = null;
  private final: ResponsesObject | null = null;

  constructor(private readonly context: ResponsesContext) {}

  push(chunk: ChatChunk): ResponsesStreamEvent[] {
    const events: ResponsesStreamEvent[] = [];
    this.start(events);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices.find((candidate) => candidate.index === 0);
    if (!choice) return events;
    this.readDelta(choice.delta, events);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return events;
  }

  /**
   * The upstream's answer ended: closes what is open and sends the last event. `usage` is what the relay
   * counted when the upstream reported none.
   */
  finish(usage?: ChatUsage): ResponsesStreamEvent[] {
    const events: ResponsesStreamEvent[] = [];
    this.start(events);
    const outcome = outcomeOf(this.finishReason);
    const status: ResponsesItemStatus = outcome.status === 'incomplete' ? 'incomplete' : 'completed';
    this.closeAll(events, status);
    const finalUsage = this.usage ?? usage;
    this.final = buildResponsesObject(this.context, {
      ...outcome,
      output: this.output,
      usage: finalUsage ? convertToResponsesUsage(finalUsage) : null,
    });
    const type = outcome.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
    this.emit(events, { type, response: this.final });
    return events;
  }

  /** The answer broke off (the upstream stream was cut …): response.failed, with what was produced. */
  fail(message: string): ResponsesStreamEvent[] {
    const events: ResponsesStreamEvent[] = [];
    this.start(events);
    this.closeAll(events, 'incomplete');
    this.final = buildResponsesObject(this.context, {
      status: 'failed',
      output: this.output,
      usage: this.usage ? convertToResponsesUsage(this.usage) : null,
      error: { code: 'server_error', message },
    });
    this.emit(events, { type: 'response.failed', response: this.final });
    return events;
  }

  /** The whole response once finished or failed (for storage), else null. */
  response(): ResponsesObject | null {
    return this.final;
  }

  private emit(events: ResponsesStreamEvent[], body: ResponsesStreamEventBody): void {
    events.push({ ...body, sequence_number: this.sequence++ } as ResponsesStreamEvent);
  }

  private start(events: ResponsesStreamEvent[]): void {
    if (this.isStarted) return;
    this.isStarted = true;
    const response = buildResponsesObject(this.context, { output: [] });
    this.emit(events, { type: 'response.created', response });
    this.emit(events, { type: 'response.in_progress', response });
  }

  private readDelta(delta: ChatDelta, events: ResponsesStreamEvent[]): void {
    if (delta.reasoning_content) this.addReasoning(delta.reasoning_content, events);
    if (delta.reasoning_signature !== undefined) this.signReasoning(delta.reasoning_signature, events);
    if (delta.redacted_thinking !== undefined) this.addRedactedThinking(delta.redacted_thinking, events);
    if (delta.content) this.addMessageText('output_text', delta.content, events);
    if (delta.refusal) this.addMessageText('refusal', delta.refusal, events);
    for (const call of delta.tool_calls ?? []) this.addToolCall(call, events);
  }

  private addItem(item: ResponsesOutputItem, events: ResponsesStreamEvent[]): number {
    const outputIndex = this.output.length;
    this.output.push(item);
    this.emit(events, {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: structuredClone(item),
    });
    return outputIndex;
  }

  private addReasoning(text: string, events: ResponsesStreamEvent[]): void {
    let open = this.open;
    if (open?.kind !== 'reasoning') {
      this.closeOpen(events, 'completed');
      const item: ResponsesReasoningItem = { type: 'reasoning', id: createResponsesId('rs'), summary: [] };
      open = { kind: 'reasoning', outputIndex: this.addItem(item, events), item, text: '' };
      this.open = open;
      this.emit(events, {
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: open.outputIndex,
        content_index: 0,
        part: { type: 'reasoning_text', text: '' },
      });
    }
    open.text += text;
    this.emit(events, {
      type: 'response.reasoning_text.delta',
      item_id: open.item.id,
      output_index: open.outputIndex,
      content_index: 0,
      delta: text,
    });
  }

  /** A signature ends its thinking block: the next thinking is a new block, hence a new item. */
  private signReasoning(signature: string, events: ResponsesStreamEvent[]): void {
    if (this.open?.kind === 'reasoning') {
      this.open.item.encrypted_content = signature;
      this.closeOpen(events, 'completed');
      return;
    }
    this.addWholeReasoning(createReasoningItem('', signature), events);
  }

  private addRedactedThinking(data: string, events: ResponsesStreamEvent[]): void {
    this.closeOpen(events, 'completed');
    this.addWholeReasoning(createReasoningItem('', data), events);
  }

  private addWholeReasoning(item: ResponsesReasoningItem, events: ResponsesStreamEvent[]): void {
    this.closeOpen(events, 'completed');
    const outputIndex = this.addItem({ ...item, status: 'in_progress' }, events);
    this.output[outputIndex] = item;
    this.emit(events, { type: 'response.output_item.done', output_index: outputIndex, item });
  }

  private addMessageText(
    kind: 'output_text' | 'refusal',
    text: string,
    events: ResponsesStreamEvent[],
  ): void {
    let open = this.open;
    if (open?.kind !== 'message') {
      this.closeOpen(events, 'completed');
      const item: ResponsesMessageItem = {
        type: 'message',
        id: createResponsesId('msg'),
        role: 'assistant',
        status: 'in_progress',
        content: [],
      };
      open = { kind: 'message', outputIndex: this.addItem(item, events), item, part: null };
      this.open = open;
    }
    if (open.part?.type !== kind) {
      this.closePart(open, events);
      open.part =
        kind === 'output_text'
          ? { type: 'output_text', text: '', annotations: [] }
          : { type: 'refusal', refusal: '' };
      open.item.content.push(open.part);
      this.emit(events, {
        ...this.partPosition(open),
        type: 'response.content_part.added',
        part: { ...open.part },
      });
    }
    const position = this.partPosition(open);
    if (open.part.type === 'output_text') {
      open.part.text += text;
      this.emit(events, { ...position, type: 'response.output_text.delta', delta: text, logprobs: [] });
    } else {
      open.part.refusal += text;
      this.emit(events, { ...position, type: 'response.refusal.delta', delta: text });
    }
  }

  /**
   * A tool call opens its item at its first delta (vendors name the tool there, which says whether it is a
   * custom tool's call or a tool search). A function call's arguments stream as they come; a custom tool's
   * input is inside JSON arguments ({"input": …}), so it is sent whole when the call ends, and a tool search's
   * arguments come with its item's end.
   */
  private addToolCall(delta: ToolCallDelta, events: ResponsesStreamEvent[]): void {
    let call = this.calls.get(delta.index);
    if (!call) {
      this.closeOpen(events, 'completed');
      const item = createToolCallItem(
        this.context.toolOrigins,
        // Some vendors give no call id; the client needs one to answer the call.
        {
          id: delta.id || `call_${randomBytes(12).toString('hex')}`,
          name: delta.function?.name ?? '',
          arguments: '',
        },
        'in_progress',
      );
      call = { outputIndex: this.addItem(item, events), item, wholeArguments: '' };
      this.calls.set(delta.index, call);
    } else if (delta.function?.name && call.item.type !== 'tool_search_call' && call.item.name === '') {
      call.item.name = delta.function.name;
    }
    const args = delta.function?.arguments;
    if (!args) return;
    if (call.item.type !== 'function_call') {
      call.wholeArguments += args;
      return;
    }
    call.item.arguments += args;
    this.emit(events, {
      type: 'response.function_call_arguments.delta',
      item_id: call.item.id,
      output_index: call.outputIndex,
      delta: args,
    });
  }

  private closeToolCall(call: OpenCall, events: ResponsesStreamEvent[]): void {
    const { item, outputIndex } = call;
    item.status = 'completed';
    const position = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'tool_search_call') {
      // A tool search's call has no delta events: its arguments come with the item.
      item.arguments = toolSearchArguments(call.wholeArguments);
    } else if (item.type === 'custom_tool_call') {
      item.input = customToolInput(call.wholeArguments);
      if (item.input !== '') {
        this.emit(events, { ...position, type: 'response.custom_tool_call_input.delta', delta: item.input });
      }
      this.emit(events, { ...position, type: 'response.custom_tool_call_input.done', input: item.input });
    } else {
      this.emit(events, {
        ...position,
        type: 'response.function_call_arguments.done',
        arguments: item.arguments,
        name: item.name,
      });
    }
    this.emit(events, { type: 'response.output_item.done', output_index: outputIndex, item });
  }

  private partPosition(open: OpenMessage) {
    return {
      item_id: open.item.id,
      output_index: open.outputIndex,
      content_index: open.item.content.length - 1,
    };
  }

  private closePart(open: OpenMessage, events: ResponsesStreamEvent[]): void {
    const part = open.part;
    if (!part) return;
    const position = this.partPosition(open);
    if (part.type === 'output_text') {
      this.emit(events, { ...position, type: 'response.output_text.done', text: part.text, logprobs: [] });
    } else {
      this.emit(events, { ...position, type: 'response.refusal.done', refusal: part.refusal });
    }
    this.emit(events, { ...position, type: 'response.content_part.done', part: { ...part } });
    open.part = null;
  }

  private closeOpen(events: ResponsesStreamEvent[], status: ResponsesItemStatus): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    if (open.kind === 'message') {
      this.closePart(open, events);
      open.item.status = status;
    } else {
      const position = { item_id: open.item.id, output_index: open.outputIndex, content_index: 0 };
      const part = { type: 'reasoning_text' as const, text: open.text };
      this.emit(events, { ...position, type: 'response.reasoning_text.done', text: open.text });
      this.emit(events, { ...position, type: 'response.content_part.done', part });
      open.item.content = [part];
      open.item.status = 'completed';
    }
    this.emit(events, { type: 'response.output_item.done', output_index: open.outputIndex, item: open.item });
  }

  private closeAll(events: ResponsesStreamEvent[], status: ResponsesItemStatus): void {
    this.closeOpen(events, status);
    for (const call of this.calls.values()) this.closeToolCall(call, events);
    this.calls.clear();
  }
}

/** Server-sent events as the Responses API frames them: the event type, then its JSON. */
export function formatResponsesEvents(events: ResponsesStreamEvent[]): string {
  let text = '';
  for (const event of events) text += `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  return text;
}
