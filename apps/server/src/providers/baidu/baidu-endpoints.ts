/**
 * Where each ERNIE model is served in the v1 API: `{base}/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}`.
 * The first models got names of their own (ERNIE-4.0-8K is `completions_pro`, ERNIE-3.5-8K `completions`);
 * later ones are served at their lower-cased name (ERNIE-4.0-Turbo-8K → `ernie-4.0-turbo-8k`), which is the
 * rule for every model not listed here, dated versions included (ERNIE-3.5-8K-0701 → `ernie-3.5-8k-0701`).
 * Endpoints from each model's page of https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Nlks5zkzu. A custom
 * deployment's endpoint is reached by mapping the model to its endpoint name in the channel's model mapping.
 */
const CHAT_ENDPOINTS: Readonly<Record<string, string>> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-4.0-8K-Preemptible': 'completions_pro_preemptible',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-3.5-8K-Preemptible': 'completions_preemptible',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Character-8K': 'ernie-char-8k',
  'ERNIE-Functions-8K': 'ernie-func-8k',
  'ERNIE-Speed-AppBuilder-8K': 'ai_apaas',
};

/** The embedding models, whose endpoints use underscores (`.../wenxinworkshop/embeddings/{endpoint}`). */
const EMBEDDING_ENDPOINTS: Readonly<Record<string, string>> = {
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

const findIgnoringCase = (table: Readonly<Record<string, string>>, model: string): string | undefined =>
  table[model] ?? Object.entries(table).find(([name]) => name.toLowerCase() === model.toLowerCase())?.[1];

/** The chat endpoint of a model: from the table, else its lower-cased name. */
export function findBaiduChatEndpoint(model: string): string {
  return findIgnoringCase(CHAT_ENDPOINTS, model) ?? model.toLowerCase();
}

/** The embeddings endpoint of a model: from the table, else its lower-cased name with `-` as `_`. */
export function findBaiduEmbeddingEndpoint(model: string): string {
  return findIgnoringCase(EMBEDDING_ENDPOINTS, model) ?? model.toLowerCase().replaceAll('-', '_');
}
