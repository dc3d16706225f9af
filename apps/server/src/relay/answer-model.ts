import type { ChatAnswer, ChatStreamDecoder, ChatTranslator } from '../canonical/translation';

/**
 * A translator whose answers and chunks name the model: some vendors' never do (Bedrock Converse, Vertex AI),
 * and a client should not get `model: ""`, so an empty one becomes the model the client asked for.
 */
export function withAnswerModel(
  translator: ChatTranslator,
  model: string,
): Pick<ChatTranslator, 'readResponse' | 'createStreamDecoder'> {
  return {
    readResponse(body): ChatAnswer {
      const answer = translator.readResponse(body);
      if (answer.completion.model === '') answer.completion.model = model;
      return answer;
    },
    createStreamDecoder(): ChatStreamDecoder {
      const decoder = translator.createStreamDecoder();
      const fill: ChatStreamDecoder['push'] = (bytes) => {
        const chunks = decoder.push(bytes);
        for (const chunk of chunks) if (chunk.model === '') chunk.model = model;
        return chunks;
      };
      return {
        push: fill,
        end() {
          const chunks = decoder.end();
          for (const chunk of chunks) if (chunk.model === '') chunk.model = model;
          return chunks;
        },
        usage: () => decoder.usage(),
      };
    },
  };
}
