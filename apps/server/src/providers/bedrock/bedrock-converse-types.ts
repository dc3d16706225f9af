/**
 * The AWS Bedrock Converse and ConverseStream wire format, as the Bedrock Runtime API reference describes it
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html and
 * API_runtime_ConverseStream.html). Blobs (image and document bytes, redacted reasoning) travel as base64 text
 * in the JSON body. The model id is not in the body: it is a segment of the URL path.
 */

/** The vendor's name in the errors clients see. */
export const BEDROCK = 'AWS Bedrock';

/** https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html */
export interface BedrockCachePoint {
  type: 'default';
  ttl?: '5m' | '1h';
}

export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type BedrockDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

export interface BedrockImageBlock {
  format: BedrockImageFormat;
  /** base64 */
  source: { bytes: string };
}

export interface BedrockDocumentBlock {
  format: BedrockDocumentFormat;
  /** letters, digits, single spaces, hyphens, parentheses and square brackets only */
  name: string;
  source: { bytes: string };
}

export type BedrockToolResultContent = { text: string } | { json: unknown } | { image: BedrockImageBlock };

export type BedrockReasoningContent =
  | { reasoningText: { text: string; signature?: string } }
  /** base64 */
  | { redactedContent: string };

export type BedrockContentBlock =
  | { text: string }
  | { image: BedrockImageBlock }
  | { document: BedrockDocumentBlock }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | {
      toolResult: {
        toolUseId: string;
        content: BedrockToolResultContent[];
        status?: 'success' | 'error';
      };
    }
  | { reasoningContent: BedrockReasoningContent }
  | { cachePoint: BedrockCachePoint };

export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

export type BedrockSystemBlock = { text: string } | { cachePoint: BedrockCachePoint };

export type BedrockTool =
  | {
      toolSpec: {
        name: string;
        description?: string;
        inputSchema: { json: Record<string, unknown> };
        strict?: boolean;
      };
    }
  | { cachePoint: BedrockCachePoint };

export type BedrockToolChoice =
  { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

/** https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_OutputFormat.html */
export interface BedrockOutputConfig {
  textFormat: {
    type: 'json_schema';
    /** the schema is JSON text, not an object */
    structure: { jsonSchema: { schema: string; name?: string; description?: string } };
  };
}

export interface BedrockConverseRequest {
  messages: BedrockMessage[];
  system?: BedrockSystemBlock[];
  inferenceConfig?: {
    /** the model's maximum when absent (InferenceConfiguration in the API reference) */
    maxTokens?: number;
    temperature?: number;
    topP?: number;
    stopSequences?: string[];
  };
  toolConfig?: { tools: BedrockTool[]; toolChoice?: BedrockToolChoice };
  /** fields of the model's own API that Converse does not name: Claude's thinking and top_k */
  additionalModelRequestFields?: Record<string, unknown>;
  outputConfig?: BedrockOutputConfig;
}

/** https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html */
export interface BedrockUsage {
  /** input tokens neither read from nor written to the prompt cache */
  inputTokens: number;
  outputTokens: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

export type BedrockStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'guardrail_intervened'
  | 'content_filtered'
  | 'malformed_model_output'
  | 'malformed_tool_use'
  | 'model_context_window_exceeded';

export interface BedrockConverseResponse {
  output: { message?: BedrockMessage };
  stopReason: BedrockStopReason | (string & {});
  usage?: BedrockUsage;
  metrics?: { latencyMs: number };
  additionalModelResponseFields?: unknown;
}

/** The JSON payloads of ConverseStream's events, by `:event-type` header. */
export interface BedrockStreamEvents {
  messageStart: { role: 'assistant' };
  contentBlockStart: {
    contentBlockIndex: number;
    start: { toolUse?: { toolUseId: string; name: string } };
  };
  contentBlockDelta: {
    contentBlockIndex: number;
    delta: {
      text?: string;
      toolUse?: { input: string };
      reasoningContent?: { text?: string; signature?: string; redactedContent?: string };
    };
  };
  contentBlockStop: { contentBlockIndex: number };
  messageStop: { stopReason: BedrockStopReason | (string & {}); additionalModelResponseFields?: unknown };
  metadata: { usage?: BedrockUsage; metrics?: { latencyMs: number } };
}

export type BedrockStreamEventType = keyof BedrockStreamEvents;
