/**
 * Tencent Hunyuan's API 3.0 actions ChatCompletions and GetEmbedding (version 2023-09-01,
 * https://cloud.tencent.com/document/api/1729/105701 and https://cloud.tencent.com/document/api/1729/102832):
 * PascalCase fields, every answer inside `Response`.
 */

export const TENCENT = 'Tencent Hunyuan';

export interface HunyuanContent {
  Type: 'text' | 'image_url';
  Text?: string;
  ImageUrl?: { Url: string };
}

export interface HunyuanToolCall {
  Id: string;
  Type: 'function';
  Function: { Name: string; Arguments: string };
  /** the call's position, in stream deltas */
  Index?: number;
}

export interface HunyuanMessage {
  Role: 'system' | 'user' | 'assistant' | 'tool';
  Content?: string;
  /** multimodal content (hunyuan-vision); Content and Contents are exclusive */
  Contents?: HunyuanContent[];
  ToolCallId?: string;
  ToolCalls?: HunyuanToolCall[];
}

export interface HunyuanTool {
  Type: 'function';
  /** Parameters is the JSON Schema as JSON text */
  Function: { Name: string; Parameters: string; Description?: string };
}

export interface HunyuanChatRequest {
  Model: string;
  Messages: HunyuanMessage[];
  Stream?: boolean;
  TopP?: number;
  Temperature?: number;
  Tools?: HunyuanTool[];
  /** none, auto, or custom with CustomTool */
  ToolChoice?: 'none' | 'auto' | 'custom';
  CustomTool?: HunyuanTool;
  Stop?: string[];
  Seed?: number;
}

export interface HunyuanUsage {
  PromptTokens?: number;
  CompletionTokens?: number;
  TotalTokens?: number;
  /** CachedTokens: prompt tokens read from the cache (part of PromptTokens); a string in the API reference */
  PromptTokensDetails?: { CachedTokens?: string | number };
}

export interface HunyuanError {
  Code: string;
  Message?: string;
}

export interface HunyuanChoice {
  /** stop, length, sensitive (the safety review cut the answer), tool_calls; '' while a stream goes on */
  FinishReason?: string;
  Index?: number;
  Message?: { Role?: string; Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] };
  Delta?: { Role?: string; Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] };
}

/** An answer's `Response`, and (without the wrapper) one stream event. */
export interface HunyuanChatResponse {
  Id?: string;
  Created?: number;
  Choices?: HunyuanChoice[];
  Usage?: HunyuanUsage;
  Note?: string;
  RequestId?: string;
  Error?: HunyuanError;
  /** a failure in the middle of a stream */
  ErrorMsg?: { Code?: number | string; Msg?: string };
}

export interface HunyuanEmbeddingResponse {
  Data?: Array<{ Embedding?: number[]; Index?: number; Object?: string }>;
  Usage?: HunyuanUsage;
  RequestId?: string;
  Error?: HunyuanError;
}
