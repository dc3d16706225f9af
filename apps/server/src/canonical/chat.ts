/**
 * The canonical chat types: the one shape every inbound protocol is decoded into and every vendor adapter
 * encodes from. They follow OpenAI's chat completions wire format (snake_case, the dialect most vendors and
 * tools already speak), typed, and extended where other protocols carry more: thinking blocks with their
 * signatures, cache-control marks, documents, tool results with images and an error flag. Extensions are marked
 * "extension"; an OpenAI-compatible upstream never sees them (the OpenAI encoder drops or converts them).
 *
 * Fields a layer does not know travel in the object itself (a client's unknown OpenAI field reaches an
 * OpenAI-compatible upstream unchanged); a translator to another protocol drops them deliberately.
 */

/** Anthropic's prompt-caching mark (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). Extension. */
export interface CacheControl {
  type: 'ephemeral';
  /** '5m' (default) or '1h' */
  ttl?: string;
}

export interface TextPart {
  type: 'text';
  text: string;
  /** extension */
  cache_control?: CacheControl;
}

export interface ImagePart {
  type: 'image_url';
  /** an https URL or a `data:<media type>;base64,<data>` URL */
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
  /** extension */
  cache_control?: CacheControl;
}

export interface AudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}

/** A document (PDF, text) as OpenAI's file part: base64 data URL in file_data. */
export interface FilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
  /** extension */
  cache_control?: CacheControl;
}

/** Extended thinking an assistant produced; the signature must go back unchanged in later turns. Extension. */
export interface ThinkingPart {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

/** Thinking the vendor encrypted; sent back as it came. Extension. */
export interface RedactedThinkingPart {
  type: 'redacted_thinking';
  data: string;
}

export type UserContentPart = TextPart | ImagePart | AudioPart | FilePart;
export type AssistantContentPart = TextPart | ThinkingPart | RedactedThinkingPart;

export interface ToolCall {
  id: string;
  type: 'function';
  /** arguments is JSON text, as OpenAI sends it */
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  /** 'developer' is OpenAI's newer name for system instructions */
  role: 'system' | 'developer';
  content: string | TextPart[];
  name?: string;
}

export interface UserMessage {
  role: 'user';
  content: string | UserContentPart[];
  name?: string;
}

export interface AssistantMessage {
  role: 'assistant';
  /** text, or parts when thinking blocks or cache marks must survive (thinking first, as vendors order it) */
  content?: string | AssistantContentPart[] | null;
  tool_calls?: ToolCall[];
  /** the reasoning text of OpenAI-compatible vendors (DeepSeek, Qwen …); decoders turn it into a ThinkingPart */
  reasoning_content?: string;
  refusal?: string | null;
  name?: string;
}

export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  /** images in a tool result are an extension (Anthropic and Gemini take them) */
  content: string | Array<TextPart | ImagePart>;
  /** the tool failed (Anthropic's is_error). Extension. */
  is_error?: boolean;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A JSON Schema object, passed to vendors as it is (each adapter strips what its vendor rejects). */
export type JsonSchema = Record<string, unknown>;

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
  /** extension */
  cache_control?: CacheControl;
}

/**
 * A vendor's own tool (Anthropic's web_search_20250305, computer use, text editor …; OpenAI's web_search …),
 * kept as the client sent it and passed only to a channel of the same protocol; translators to other vendors
 * drop it and say so in the log. Extension.
 */
export interface VendorTool {
  type: string;
  /** the protocol the tool belongs to: 'anthropic-messages', 'openai-responses', 'gemini' */
  vendor_protocol: string;
  definition: Record<string, unknown>;
}

export type ChatTool = FunctionTool | VendorTool;

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema?: JsonSchema; strict?: boolean };
    };

/**
 * The OpenAI chat options no other protocol has a field for (choices, stop words, seed, penalties, logit
 * bias, log-probabilities), in the order OpenAI documents them. Decoders and translators that list which
 * fields to read, drop or copy take this one list instead of spelling it out again.
 */
export const OPENAI_ONLY_SAMPLING_FIELDS = [
  'n',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
] as const;

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  /** the older name; max_completion_tokens wins when both are given */
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  n?: number;
  stop?: string | string[];
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  logprobs?: boolean;
  top_logprobs?: number;
  user?: string;
  tools?: ChatTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ResponseFormat;
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Anthropic / Gemini sampling option. Extension. */
  top_k?: number;
  /** extended thinking with a token budget (Anthropic's thinking, Gemini's thinkingBudget). Extension. */
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
  /** other fields of the client's protocol, passed on to a same-protocol upstream, dropped by translators */
  [field: string]: unknown;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** OpenAI's usage object, with the vendors' cache counts. prompt_tokens counts every input token, cached or not. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: {
    /** input tokens read from the vendor's cache (part of prompt_tokens) */
    cached_tokens?: number;
    /** input tokens written to the vendor's cache (part of prompt_tokens; Anthropic's cache_creation_input_tokens). Extension. */
    cache_creation_tokens?: number;
    audio_tokens?: number;
    image_tokens?: number;
  };
  completion_tokens_details?: {
    /** thinking tokens (part of completion_tokens) */
    reasoning_tokens?: number;
    audio_tokens?: number;
    image_tokens?: number;
  };
}

export interface ChatChoice {
  index: number;
  message: AssistantMessage;
  finish_reason: FinishReason | null;
  logprobs?: unknown;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatChoice[];
  usage?: ChatUsage;
  system_fingerprint?: string;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string;
  /** the signature that closes a thinking block (Anthropic signature_delta, Bedrock reasoning signature). Extension. */
  reasoning_signature?: string;
  /** a redacted thinking block, whole. Extension. */
  redacted_thinking?: string;
  tool_calls?: ToolCallDelta[];
  refusal?: string | null;
}

export interface ChatChunkChoice {
  index: number;
  delta: ChatDelta;
  finish_reason: FinishReason | null;
  logprobs?: unknown;
}

/** One streamed chunk (OpenAI's chat.completion.chunk). A usage-only chunk has `choices: []`. */
export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatChunkChoice[];
  usage?: ChatUsage | null;
}

/** Embeddings, as OpenAI's /v1/embeddings takes them. */
export interface EmbeddingRequest {
  model: string;
  input: string | string[] | number[] | number[][];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  user?: string;
  [field: string]: unknown;
}

export interface EmbeddingResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
