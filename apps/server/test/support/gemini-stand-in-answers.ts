import type {
  GeminiContent,
  GeminiErrorBody,
  GeminiGenerateContentRequest,
  GeminiGenerateContentResponse,
} from '../../src/providers/gemini/gemini-wire-types';

// What the Gemini stand-in answers when a test scripts nothing, and the errors it can answer.

/** Google's error object (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). */
export function googleError(code: number, status: string, message: string, reason?: string): GeminiErrorBody {
  const details = reason
    ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }]
    : undefined;
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

/** The errors the Gemini API answers most, as it words them. */
export const geminiErrors = {
  apiKeyInvalid: googleError(
    400,
    'INVALID_ARGUMENT',
    'API key not valid. Please pass a valid API key.',
    'API_KEY_INVALID',
  ),
  invalidArgument: googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.'),
  permissionDenied: googleError(
    403,
    'PERMISSION_DENIED',
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  ),
  resourceExhausted: googleError(
    429,
    'RESOURCE_EXHAUSTED',
    'You exceeded your current quota, please check your plan and billing details.',
  ),
  unavailable: googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
  notFound: (model: string) =>
    googleError(
      404,
      'NOT_FOUND',
      `models/${model} is not found for API version v1beta, or is not supported for generateContent.`,
    ),
};

export function textOf(contents: GeminiContent[] | undefined): string {
  return (contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? '')
    .join(' ');
}

/** A token count that is stable and easy to predict in tests: one token per word. */
export const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

export function defaultAnswer(
  requestBody: Record<string, unknown> | null,
  model: string | null,
): GeminiGenerateContentResponse {
  const body = (requestBody ?? {}) as Partial<GeminiGenerateContentRequest>;
  const promptTokenCount =
    countWords(textOf(body.contents)) +
    countWords(textOf(body.systemInstruction ? [body.systemInstruction] : []));
  const declaration = body.tools?.find((tool) => tool.functionDeclarations?.length)
    ?.functionDeclarations?.[0];
  const parts = declaration
    ? [{ functionCall: { id: 'stand-in-call-1', name: declaration.name, args: { city: 'Paris' } } }]
    : [{ text: `Hello from the Gemini stand-in (${model}).` }];
  const candidatesTokenCount = declaration ? 5 : 6;
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount,
      candidatesTokenCount,
      totalTokenCount: promptTokenCount + candidatesTokenCount,
    },
    modelVersion: model ?? '',
    responseId: 'stand-in-response',
  };
}

/** An answer as a stream: one word of text per event, a function call whole, usage on every event. */
export function streamOf(answer: GeminiGenerateContentResponse): GeminiGenerateContentResponse[] {
  const candidate = answer.candidates?.[0];
  if (!candidate) return [answer];
  const { usageMetadata, modelVersion, responseId } = answer;
  const pieces = (candidate.content?.parts ?? []).flatMap((part) =>
    part.text ? (part.text.match(/\S+\s*/g) ?? []).map((word) => ({ ...part, text: word })) : [part],
  );
  const running = {
    promptTokenCount: usageMetadata?.promptTokenCount,
    totalTokenCount: usageMetadata?.promptTokenCount,
  };
  return pieces.map((part, index) => {
    const isLast = index === pieces.length - 1;
    return {
      candidates: [
        {
          content: { role: 'model', parts: [part] },
          index: 0,
          ...(isLast ? { finishReason: candidate.finishReason } : {}),
        },
      ],
      usageMetadata: isLast ? usageMetadata : running,
      modelVersion,
      responseId,
    };
  });
}

/** A small vector that depends on the text, so tests can tell inputs apart. */
export function embeddingOf(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, index) => ((text.length + index) % 7) / 10);
}
