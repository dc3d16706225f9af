/**
 * The parts of OpenAI's Responses API (https://platform.openai.com/docs/api-reference/responses) this gateway
 * writes: the response object, its output items and the stream events. Field names and optionality follow the
 * `openai` package's types; the tests check these against them at compile time.
 */

export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';
export type ResponsesStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  /** citations; none come from a chat completion */
  annotations: never[];
}

export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

export interface ResponsesMessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: ResponsesItemStatus;
  content: Array<ResponsesOutputText | ResponsesRefusal>;
}

export interface ResponsesFunctionCallItem {
  type: 'function_call';
  /** the item's id (fc_…); call_id is what function_call_output answers */
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ResponsesItemStatus;
  /** the namespace of a tool the request gave inside one */
  namespace?: string;
}

/** A call of a custom (free-form) tool: its input is text, not JSON arguments. */
export interface ResponsesCustomToolCallItem {
  type: 'custom_tool_call';
  /** the item's id (ctc_…); call_id is what custom_tool_call_output answers */
  id: string;
  call_id: string;
  name: string;
  input: string;
  status: ResponsesItemStatus;
  namespace?: string;
}

export interface ResponsesReasoningText {
  type: 'reasoning_text';
  text: string;
}

/**
 * Thinking as a reasoning item: the vendor's thinking text as `content` (reasoning_text, not a summary: it is
 * the thinking itself), and its signature, or a redacted block's data, as `encrypted_content`, which a client
 * sends back unchanged in its next input.
 */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  content?: ResponsesReasoningText[];
  encrypted_content?: string | null;
  status?: ResponsesItemStatus;
}

/** A call of a tool search the client runs: the client answers with a tool_search_output item. */
export interface ResponsesToolSearchCallItem {
  type: 'tool_search_call';
  /** the item's id (tsc_…) */
  id: string;
  call_id: string;
  arguments: unknown;
  execution: 'client';
  status: ResponsesItemStatus;
}

export type ResponsesToolCallItem =
  ResponsesFunctionCallItem | ResponsesCustomToolCallItem | ResponsesToolSearchCallItem;

export type ResponsesOutputItem = ResponsesMessageItem | ResponsesToolCallItem | ResponsesReasoningItem;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** The request fields a response object repeats, as the API does. */
export interface ResponsesEcho {
  model: string;
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null } | null;
  temperature: number | null;
  top_p: number | null;
  text: { format: Record<string, unknown>; verbosity?: string };
  /** as the client sent them */
  tool_choice: string | Record<string, unknown>;
  tools: Array<Record<string, unknown>>;
  truncation: 'auto' | 'disabled';
  store: boolean;
  user?: string;
  safety_identifier?: string;
  prompt_cache_key?: string;
}

export interface ResponsesObject extends ResponsesEcho {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponsesStatus;
  /** only when completed */
  completed_at?: number;
  error: { code: 'server_error'; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  background: false;
}

type Sequenced<Event> = Event & { sequence_number: number };

interface ItemEvent {
  item_id: string;
  output_index: number;
}

interface PartEvent extends ItemEvent {
  content_index: number;
}

/** The stream events this gateway sends, without their sequence numbers. */
export type ResponsesStreamEventBody =
  | { type: 'response.created' | 'response.in_progress'; response: ResponsesObject }
  | { type: 'response.completed' | 'response.incomplete' | 'response.failed'; response: ResponsesObject }
  | {
      type: 'response.output_item.added' | 'response.output_item.done';
      output_index: number;
      item: ResponsesOutputItem;
    }
  | ({
      type: 'response.content_part.added' | 'response.content_part.done';
      part: ResponsesOutputText | ResponsesRefusal | ResponsesReasoningText;
    } & PartEvent)
  | ({ type: 'response.output_text.delta'; delta: string; logprobs: never[] } & PartEvent)
  | ({ type: 'response.output_text.done'; text: string; logprobs: never[] } & PartEvent)
  | ({ type: 'response.refusal.delta'; delta: string } & PartEvent)
  | ({ type: 'response.refusal.done'; refusal: string } & PartEvent)
  | ({ type: 'response.reasoning_text.delta'; delta: string } & PartEvent)
  | ({ type: 'response.reasoning_text.done'; text: string } & PartEvent)
  | ({ type: 'response.function_call_arguments.delta'; delta: string } & ItemEvent)
  | ({ type: 'response.function_call_arguments.done'; arguments: string; name: string } & ItemEvent)
  | ({ type: 'response.custom_tool_call_input.delta'; delta: string } & ItemEvent)
  | ({ type: 'response.custom_tool_call_input.done'; input: string } & ItemEvent)
  | { type: 'error'; code: string | null; message: string; param: string | null };

export type ResponsesStreamEvent = Sequenced<ResponsesStreamEventBody>;
