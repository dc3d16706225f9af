/**
 * The wire format of the Gemini API v1beta (https://ai.google.dev/api/generate-content,
 * https://ai.google.dev/api/embeddings, https://ai.google.dev/api/tokens, https://ai.google.dev/api/models),
 * as JSON on the wire (camelCase). Vertex AI's `publishers/google/models` speak the same bodies. Shared by the
 * Gemini channel adapter, the Vertex adapter and the inbound `/v1beta` protocol. Fields this gateway never
 * reads are typed loosely or left out; a Gemini client's unknown fields travel in the pass-through lane.
 */

export type GeminiRole = 'user' | 'model';

export interface GeminiBlob {
  mimeType: string;
  /** base64 */
  data: string;
}

/** A file by URI: a Files API URI, a public or signed https URL, a YouTube URL, gs:// on Vertex. */
export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

export interface GeminiFunctionCall {
  /** Gemini 3 always returns one; the matching functionResponse must carry it back */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

/** Media in a function response (Gemini 3: https://ai.google.dev/gemini-api/docs/function-calling#multimodal). */
export interface GeminiFunctionResponsePart {
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** a JSON object; by convention `{output: …}` or `{error: …}` */
  response: Record<string, unknown>;
  parts?: GeminiFunctionResponsePart[];
}

/**
 * One part of a content: exactly one of text, inlineData, fileData, functionCall, functionResponse,
 * executableCode, codeExecutionResult. `thought` marks a thought summary; `thoughtSignature` (base64) is
 * opaque context the model needs back unchanged (https://ai.google.dev/gemini-api/docs/thought-signatures).
 */
export interface GeminiPart {
  text?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  executableCode?: { language?: string; code?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
  thought?: boolean;
  thoughtSignature?: string;
  videoMetadata?: Record<string, unknown>;
}

export interface GeminiContent {
  /** absent means 'user' */
  role?: GeminiRole;
  parts: GeminiPart[];
}

/** A JSON Schema as `parametersJsonSchema` and `responseJsonSchema` take it. */
export type GeminiJsonSchema = Record<string, unknown>;

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** the OpenAPI-subset Schema (TYPE names in capitals); exclusive with parametersJsonSchema */
  parameters?: Record<string, unknown>;
  /** JSON Schema (https://ai.google.dev/api/caching#FunctionDeclaration) */
  parametersJsonSchema?: GeminiJsonSchema;
  response?: Record<string, unknown>;
  responseJsonSchema?: GeminiJsonSchema;
}

/** One tool entry; Google's own tools are objects keyed by their name (`{googleSearch: {}}`). */
export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  googleSearch?: Record<string, unknown>;
  googleSearchRetrieval?: Record<string, unknown>;
  codeExecution?: Record<string, unknown>;
  urlContext?: Record<string, unknown>;
  [tool: string]: unknown;
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiToolConfig {
  functionCallingConfig?: {
    mode?: GeminiFunctionCallingMode;
    /** only with mode ANY */
    allowedFunctionNames?: string[];
  };
}

/** The enum names as the SDK sends them; Google's REST examples also write them in lower case. */
export type GeminiThinkingLevel =
  'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH' | 'minimal' | 'low' | 'medium' | 'high';

/** thinkingBudget (Gemini 2.5: 0 = off, -1 = dynamic) and thinkingLevel (Gemini 3) are exclusive. */
export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: GeminiThinkingLevel;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  /** the OpenAPI-subset Schema; exclusive with responseJsonSchema */
  responseSchema?: Record<string, unknown>;
  responseJsonSchema?: GeminiJsonSchema;
  responseModalities?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseLogprobs?: boolean;
  logprobs?: number;
  thinkingConfig?: GeminiThinkingConfig;
  [field: string]: unknown;
}

export type GeminiHarmCategory =
  | 'HARM_CATEGORY_HARASSMENT'
  | 'HARM_CATEGORY_HATE_SPEECH'
  | 'HARM_CATEGORY_SEXUALLY_EXPLICIT'
  | 'HARM_CATEGORY_DANGEROUS_CONTENT'
  | 'HARM_CATEGORY_CIVIC_INTEGRITY'
  | (string & {});

export interface GeminiSafetySetting {
  category: GeminiHarmCategory;
  /** BLOCK_LOW_AND_ABOVE, BLOCK_MEDIUM_AND_ABOVE, BLOCK_ONLY_HIGH, BLOCK_NONE, OFF */
  threshold: string;
}

/** POST /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse */
export interface GeminiGenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: GeminiSafetySetting[];
  /** `cachedContents/{id}` of an explicit cache */
  cachedContent?: string;
}

/** https://ai.google.dev/api/generate-content#FinishReason */
export type GeminiFinishReason =
  | 'FINISH_REASON_UNSPECIFIED'
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY'
  | 'IMAGE_PROHIBITED_CONTENT'
  | 'IMAGE_RECITATION'
  | 'IMAGE_OTHER'
  | 'NO_IMAGE'
  | 'UNEXPECTED_TOOL_CALL'
  | 'TOO_MANY_TOOL_CALLS'
  | (string & {});

/** https://ai.google.dev/api/generate-content#BlockReason */
export type GeminiBlockReason =
  | 'BLOCK_REASON_UNSPECIFIED'
  | 'SAFETY'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'IMAGE_SAFETY'
  | (string & {});

export interface GeminiSafetyRating {
  category: GeminiHarmCategory;
  /** NEGLIGIBLE, LOW, MEDIUM, HIGH */
  probability: string;
  blocked?: boolean;
}

export interface GeminiCandidate {
  /** absent when the candidate was blocked before any output */
  content?: GeminiContent;
  finishReason?: GeminiFinishReason;
  finishMessage?: string;
  safetyRatings?: GeminiSafetyRating[];
  index?: number;
  tokenCount?: number;
  citationMetadata?: Record<string, unknown>;
  groundingMetadata?: Record<string, unknown>;
  avgLogprobs?: number;
}

export interface GeminiModalityTokenCount {
  /** TEXT, IMAGE, VIDEO, AUDIO, DOCUMENT */
  modality: string;
  tokenCount: number;
}

/**
 * https://ai.google.dev/api/generate-content#UsageMetadata. promptTokenCount includes cachedContentTokenCount;
 * totalTokenCount = prompt + candidates + toolUsePrompt + thoughts.
 */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
  promptTokensDetails?: GeminiModalityTokenCount[];
  cacheTokensDetails?: GeminiModalityTokenCount[];
  candidatesTokensDetails?: GeminiModalityTokenCount[];
  toolUsePromptTokensDetails?: GeminiModalityTokenCount[];
}

export interface GeminiPromptFeedback {
  blockReason?: GeminiBlockReason;
  safetyRatings?: GeminiSafetyRating[];
}

/** A generateContent answer, and each event of a streamGenerateContent?alt=sse stream. */
export interface GeminiGenerateContentResponse {
  candidates?: GeminiCandidate[];
  /** only when the prompt itself was blocked (then there are no candidates) */
  promptFeedback?: GeminiPromptFeedback;
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  /** Vertex AI */
  createTime?: string;
}

/** POST /v1beta/models/{model}:embedContent, and one entry of batchEmbedContents' `requests`. */
export interface GeminiEmbedContentRequest {
  /** `models/{model}`; required inside batchEmbedContents */
  model?: string;
  content: GeminiContent;
  /** RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, SEMANTIC_SIMILARITY, CLASSIFICATION, CLUSTERING … */
  taskType?: string;
  title?: string;
  outputDimensionality?: number;
}

export interface GeminiContentEmbedding {
  values: number[];
  /** Vertex AI only */
  statistics?: { tokenCount?: number; truncated?: boolean };
}

export interface GeminiEmbedContentResponse {
  embedding: GeminiContentEmbedding;
  /** not documented for the Gemini API; read when present (Vertex AI sends it) */
  usageMetadata?: GeminiUsageMetadata;
}

/** POST /v1beta/models/{model}:batchEmbedContents */
export interface GeminiBatchEmbedContentsRequest {
  requests: GeminiEmbedContentRequest[];
}

export interface GeminiBatchEmbedContentsResponse {
  embeddings: GeminiContentEmbedding[];
  usageMetadata?: GeminiUsageMetadata;
}

/** POST /v1beta/models/{model}:countTokens: `contents`, or a whole `generateContentRequest` (not both). */
export interface GeminiCountTokensRequest {
  contents?: GeminiContent[];
  generateContentRequest?: GeminiGenerateContentRequest & { model: string };
}

export interface GeminiCountTokensResponse {
  totalTokens: number;
  cachedContentTokenCount?: number;
  promptTokensDetails?: GeminiModalityTokenCount[];
}

/** One entry of GET /v1beta/models */
export interface GeminiModel {
  /** `models/{model}` */
  name: string;
  baseModelId?: string;
  version?: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  /** generateContent, streamGenerateContent, countTokens, embedContent, batchEmbedContents … */
  supportedGenerationMethods?: string[];
  thinking?: boolean;
  temperature?: number;
  maxTemperature?: number;
  topP?: number;
  topK?: number;
}

export interface GeminiListModelsResponse {
  models: GeminiModel[];
  nextPageToken?: string;
}

/** google.rpc.Status details: ErrorInfo (reason), QuotaFailure, RetryInfo (retryDelay), Help … */
export interface GeminiErrorDetail {
  '@type': string;
  reason?: string;
  domain?: string;
  metadata?: Record<string, string>;
  retryDelay?: string;
  [field: string]: unknown;
}

/** Google's error object (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). */
export interface GeminiErrorBody {
  error: {
    /** the HTTP status */
    code: number;
    message: string;
    /** the google.rpc.Code name: INVALID_ARGUMENT, UNAUTHENTICATED, RESOURCE_EXHAUSTED … */
    status: string;
    details?: GeminiErrorDetail[];
  };
}
