/**
 * The wire format of Anthropic's Messages API (`POST /v1/messages`, anthropic-version 2023-06-01), as the
 * API reference documents it: https://docs.anthropic.com/en/api/messages and
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming. Shared by the Anthropic channel adapter and
 * the inbound `/v1/messages` protocol; the stream's events are in anthropic-stream-events.ts. Fields this
 * gateway never reads are left out; blocks of server tools (web search, code execution …) are typed loosely
 * and travel as they came.
 */

export interface AnthropicCacheControl {
  type: 'ephemeral';
  /** '5m' (the default) or '1h'; kept as text, as Anthropic may add others */
  ttl?: string;
}

export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface AnthropicBase64ImageSource {
  type: 'base64';
  media_type: AnthropicImageMediaType;
  data: string;
}

export interface AnthropicUrlSource {
  type: 'url';
  url: string;
}

/** A file uploaded with the Files API (beta). */
export interface AnthropicFileSource {
  type: 'file';
  file_id: string;
}

export interface AnthropicBase64PdfSource {
  type: 'base64';
  media_type: 'application/pdf';
  data: string;
}

export interface AnthropicPlainTextSource {
  type: 'text';
  media_type: 'text/plain';
  data: string;
}

export interface AnthropicContentSource {
  type: 'content';
  content: string | Array<AnthropicTextBlockParam | AnthropicImageBlockParam>;
}

export interface AnthropicTextBlockParam {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl | null;
  citations?: unknown[] | null;
}

export interface AnthropicImageBlockParam {
  type: 'image';
  source: AnthropicBase64ImageSource | AnthropicUrlSource | AnthropicFileSource;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicDocumentBlockParam {
  type: 'document';
  source:
    | AnthropicBase64PdfSource
    | AnthropicPlainTextSource
    | AnthropicContentSource
    | AnthropicUrlSource
    | AnthropicFileSource;
  title?: string | null;
  context?: string | null;
  citations?: { enabled?: boolean } | null;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  /** always a JSON object */
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicThinkingBlockParam {
  type: 'thinking';
  thinking: string;
  /** opaque; must come back exactly as the API sent it */
  signature: string;
}

export interface AnthropicRedactedThinkingBlockParam {
  type: 'redacted_thinking';
  /** opaque and encrypted; must come back exactly as the API sent it */
  data: string;
}

/** Block types of Anthropic-run tools; their fields vary per tool and this gateway only carries them. */
export type AnthropicServerBlockType =
  | 'server_tool_use'
  | 'web_search_tool_result'
  | 'web_fetch_tool_result'
  | 'code_execution_tool_result'
  | 'bash_code_execution_tool_result'
  | 'text_editor_code_execution_tool_result'
  | 'tool_search_tool_result'
  | 'mcp_tool_use'
  | 'mcp_tool_result'
  | 'container_upload'
  | 'search_result';

/** A server tool's block, request or answer side, kept as it came. */
export interface AnthropicServerBlock {
  type: AnthropicServerBlockType;
  [field: string]: unknown;
}

export type AnthropicContentBlockParam =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicDocumentBlockParam
  | AnthropicToolUseBlockParam
  | AnthropicToolResultBlockParam
  | AnthropicThinkingBlockParam
  | AnthropicRedactedThinkingBlockParam
  | AnthropicServerBlock;

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlockParam[];
}

export interface AnthropicCustomTool {
  /** 'custom' or absent */
  type?: 'custom';
  name: string;
  description?: string;
  /** a JSON Schema whose type is 'object' */
  input_schema: Record<string, unknown>;
  cache_control?: AnthropicCacheControl | null;
  strict?: boolean;
}

/** One of Anthropic's own tools (web_search_20250305, bash_20250124, computer use …), passed as defined. */
export interface AnthropicServerToolDefinition {
  type: string;
  name: string;
  [field: string]: unknown;
}

export type AnthropicTool = AnthropicCustomTool | AnthropicServerToolDefinition;

export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type AnthropicThinkingConfig =
  /** budget_tokens ≥ 1024 and below max_tokens */
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }
  | { type: 'disabled' }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' };

export interface AnthropicOutputConfig {
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  /** structured outputs: the answer's text is JSON following the schema */
  format?: { type: 'json_schema'; schema: Record<string, unknown> };
}

/** The body of `POST /v1/messages`. */
export interface AnthropicMessagesRequest {
  model: string;
  /** required by Anthropic */
  max_tokens: number;
  messages: AnthropicMessageParam[];
  system?: string | AnthropicTextBlockParam[];
  metadata?: { user_id?: string | null };
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  thinking?: AnthropicThinkingConfig;
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  output_config?: AnthropicOutputConfig;
  service_tier?: 'auto' | 'standard_only';
  /** marks the last cacheable block of the request */
  cache_control?: AnthropicCacheControl | null;
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  citations?: unknown[] | null;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** A block of an answer. */
export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicServerBlock;

export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/**
 * Token counts. The input of a request is input_tokens + cache_creation_input_tokens + cache_read_input_tokens
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance).
 */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** the cache writes split by time to live */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null;
  server_tool_use?: { web_search_requests?: number; web_fetch_requests?: number } | null;
  /** the thinking part of output_tokens */
  output_tokens_details?: { thinking_tokens?: number } | null;
  service_tier?: string | null;
}

/** The answer of `POST /v1/messages`. */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  content: AnthropicContentBlock[];
  model: string;
  /** null only in the message_start event of a stream */
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  container?: unknown;
  stop_details?: unknown;
}

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

/** An error answer (https://docs.anthropic.com/en/api/errors), also sent as an `error` stream event. */
export interface AnthropicErrorBody {
  type: 'error';
  error: {
    /** one of AnthropicErrorType; new types may appear */
    type: string;
    message: string;
    details?: { error_code?: string } | null;
  };
  request_id?: string;
}
