/** Writes each streamed GenerateContentResponse (its JSON text) for the client, and what ends the stream. */
export interface GeminiStreamFraming {
  frame(json: string): string;
  end(): string;
}

/** `?alt=sse`: one server-sent event per response, as the Gemini SDKs ask for; the stream ends by closing. */
export function createSseFraming(): GeminiStreamFraming {
  return { frame: (json) => `data: ${json}\n\n`, end: () => '' };
}

/**
 * Without alt=sse, streamGenerateContent answers one JSON array written as it grows (`[{…}` then `,\r\n{…}`,
 * then `]`), as the Gemini API does for REST clients
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 */
export function createJsonArrayFraming(): GeminiStreamFraming {
  let isOpen = false;
  return {
    frame(json) {
      const text = `${isOpen ? ',\r\n' : '['}${json}`;
      isOpen = true;
      return text;
    },
    end: () => (isOpen ? ']' : '[]'),
  };
}

export const JSON_ARRAY_CONTENT_TYPE = 'application/json; charset=UTF-8';
