/**
 * Built-in prices of the models the providers are known to serve, as ratios: model ratio 1 = $0.002 per 1K
 * prompt tokens (DESIGN.md), completion ratio = output price ÷ input price. The options ModelRatio and
 * CompletionRatio override any entry and add models. Prices are the vendors' list prices (late 2025);
 * yuan prices convert at 7 yuan to the dollar.
 */
export interface ModelPrice {
  modelRatio: number;
  completionRatio: number;
}

const USD_PER_RATIO_PER_MILLION = 2; // ratio 1 = $0.002 / 1K tokens = $2 / 1M tokens
const YUAN_PER_USD = 7;

/** Dollars per million input and output tokens. */
function usd(input: number, output = input): ModelPrice {
  return {
    modelRatio: input / USD_PER_RATIO_PER_MILLION,
    completionRatio: input === 0 ? 1 : output / input,
  };
}

/** Yuan per million input and output tokens. */
function yuan(input: number, output = input): ModelPrice {
  return usd(input / YUAN_PER_USD, output / YUAN_PER_USD);
}

/**
 * A ratio given directly, for what is not priced per token: images (ratio = dollars per image ÷ 0.002),
 * speech (per character), whisper (per transcript token, one-api's long-standing convention).
 */
function ratio(modelRatio: number, completionRatio = 1): ModelPrice {
  return { modelRatio, completionRatio };
}

function same(price: ModelPrice, names: string[]): Record<string, ModelPrice> {
  return Object.fromEntries(names.map((name) => [name, price]));
}

export const defaultModelPrices: Readonly<Record<string, ModelPrice>> = {
  // https://openai.com/api/pricing
  ...same(usd(0.5, 1.5), ['gpt-3.5-turbo', 'gpt-3.5-turbo-0125']),
  'gpt-3.5-turbo-1106': usd(1, 2),
  ...same(usd(1.5, 2), ['gpt-3.5-turbo-0613', 'gpt-3.5-turbo-0301', 'gpt-3.5-turbo-instruct']),
  ...same(usd(3, 4), ['gpt-3.5-turbo-16k', 'gpt-3.5-turbo-16k-0613']),
  ...same(usd(30, 60), ['gpt-4', 'gpt-4-0613', 'gpt-4-0314']),
  ...same(usd(60, 120), ['gpt-4-32k', 'gpt-4-32k-0613', 'gpt-4-32k-0314']),
  ...same(usd(10, 30), [
    'gpt-4-turbo',
    'gpt-4-turbo-2024-04-09',
    'gpt-4-turbo-preview',
    'gpt-4-0125-preview',
    'gpt-4-1106-preview',
    'gpt-4-vision-preview',
  ]),
  ...same(usd(2.5, 10), [
    'gpt-4o',
    'gpt-4o-2024-08-06',
    'gpt-4o-2024-11-20',
    'gpt-4o-audio-preview',
    'gpt-4o-search-preview',
  ]),
  ...same(usd(5, 15), ['gpt-4o-2024-05-13', 'chatgpt-4o-latest']),
  ...same(usd(0.15, 0.6), ['gpt-4o-mini', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini-search-preview']),
  ...same(usd(2, 8), ['gpt-4.1', 'gpt-4.1-2025-04-14']),
  ...same(usd(0.4, 1.6), ['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14']),
  ...same(usd(0.1, 0.4), ['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14']),
  'gpt-4.5-preview': usd(75, 150),
  ...same(usd(1.25, 10), ['gpt-5', 'gpt-5-2025-08-07', 'gpt-5-chat-latest']),
  ...same(usd(0.25, 2), ['gpt-5-mini', 'gpt-5-mini-2025-08-07']),
  ...same(usd(0.05, 0.4), ['gpt-5-nano', 'gpt-5-nano-2025-08-07']),
  ...same(usd(15, 60), ['o1', 'o1-2024-12-17', 'o1-preview']),
  'o1-pro': usd(150, 600),
  ...same(usd(1.1, 4.4), ['o1-mini', 'o3-mini', 'o3-mini-2025-01-31', 'o4-mini', 'o4-mini-2025-04-16']),
  ...same(usd(2, 8), ['o3', 'o3-2025-04-16']),
  'o3-pro': usd(20, 80),
  'davinci-002': usd(2),
  'babbage-002': usd(0.4),
  'text-embedding-3-small': usd(0.02),
  'text-embedding-3-large': usd(0.13),
  'text-embedding-ada-002': usd(0.1),
  // Moderation is free at OpenAI; a ratio of 0 bills nothing but keeps the model known.
  ...same(usd(0), ['omni-moderation-latest', 'text-moderation-latest', 'text-moderation-stable']),
  // Whisper is $0.006 a minute; billed per transcript token at $0.03 / 1K (about 200 tokens a minute).
  'whisper-1': ratio(15),
  'gpt-4o-transcribe': usd(2.5, 10),
  'gpt-4o-mini-transcribe': usd(1.25, 5),
  // Speech is billed per input character: tts-1 $15 / 1M characters, tts-1-hd $30.
  ...same(ratio(7.5), ['tts-1', 'tts-1-1106', 'gpt-4o-mini-tts']),
  ...same(ratio(15), ['tts-1-hd', 'tts-1-hd-1106']),
  // Images: dollars per standard image ÷ 0.002 (sizes and quality multiply it; see image-pricing.ts).
  'dall-e-2': ratio(8),
  'dall-e-3': ratio(20),
  // gpt-image-1 bills tokens: text input $5 / 1M, image output $40 / 1M.
  'gpt-image-1': usd(5, 40),

  // https://www.anthropic.com/pricing#api (served through Anthropic's OpenAI-compatible endpoint)
  'claude-3-haiku-20240307': usd(0.25, 1.25),
  ...same(usd(0.8, 4), ['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest']),
  ...same(usd(1, 5), ['claude-haiku-4-5', 'claude-haiku-4-5-20251001']),
  ...same(usd(3, 15), [
    'claude-3-sonnet-20240229',
    'claude-3-5-sonnet-20240620',
    'claude-3-5-sonnet-20241022',
    'claude-3-5-sonnet-latest',
    'claude-3-7-sonnet-20250219',
    'claude-3-7-sonnet-latest',
    'claude-sonnet-4-20250514',
    'claude-sonnet-4-0',
    'claude-sonnet-4-5',
    'claude-sonnet-4-5-20250929',
  ]),
  ...same(usd(15, 75), [
    'claude-3-opus-20240229',
    'claude-3-opus-latest',
    'claude-opus-4-20250514',
    'claude-opus-4-0',
    'claude-opus-4-1',
    'claude-opus-4-1-20250805',
  ]),

  // https://ai.google.dev/gemini-api/docs/pricing
  ...same(usd(0.5, 1.5), ['gemini-pro', 'gemini-1.0-pro']),
  'gemini-1.5-pro': usd(1.25, 5),
  'gemini-1.5-flash': usd(0.075, 0.3),
  'gemini-1.5-flash-8b': usd(0.0375, 0.15),
  'gemini-2.0-flash': usd(0.1, 0.4),
  'gemini-2.0-flash-lite': usd(0.075, 0.3),
  'gemini-2.5-pro': usd(1.25, 10),
  'gemini-2.5-flash': usd(0.3, 2.5),
  'gemini-2.5-flash-lite': usd(0.1, 0.4),
  'gemini-embedding-001': usd(0.15),
  'text-embedding-004': usd(0),
  'PaLM-2': usd(2),

  // https://mistral.ai/pricing#api-pricing
  'mistral-large-latest': usd(2, 6),
  'mistral-medium-latest': usd(0.4, 2),
  'mistral-small-latest': usd(0.1, 0.3),
  'open-mistral-nemo': usd(0.15),
  'codestral-latest': usd(0.3, 0.9),
  'open-mistral-7b': usd(0.25),
  'open-mixtral-8x7b': usd(0.7),
  'open-mixtral-8x22b': usd(2, 6),
  'ministral-8b-latest': usd(0.1),
  'ministral-3b-latest': usd(0.04),
  'pixtral-large-latest': usd(2, 6),
  'pixtral-12b': usd(0.15),
  'mistral-embed': usd(0.1),

  // https://api-docs.deepseek.com/quick_start/pricing
  'deepseek-chat': usd(0.27, 1.1),
  'deepseek-reasoner': usd(0.55, 2.19),

  // https://groq.com/pricing
  'llama-3.3-70b-versatile': usd(0.59, 0.79),
  'llama-3.1-8b-instant': usd(0.05, 0.08),
  'llama3-70b-8192': usd(0.59, 0.79),
  'llama3-8b-8192': usd(0.05, 0.08),
  'gemma2-9b-it': usd(0.2),
  'mixtral-8x7b-32768': usd(0.24),
  'deepseek-r1-distill-llama-70b': usd(0.75, 0.99),
  'qwen-qwq-32b': usd(0.29, 0.39),
  'meta-llama/llama-4-scout-17b-16e-instruct': usd(0.11, 0.34),
  'meta-llama/llama-4-maverick-17b-128e-instruct': usd(0.2, 0.6),
  'openai/gpt-oss-120b': usd(0.15, 0.75),
  'openai/gpt-oss-20b': usd(0.1, 0.5),
  'whisper-large-v3': ratio(15),
  'whisper-large-v3-turbo': ratio(15),

  // https://x.ai/api (custom or proxy channels)
  'grok-beta': usd(5, 15),
  'grok-2': usd(2, 10),
  'grok-3': usd(3, 15),
  'grok-3-mini': usd(0.3, 0.5),
  'grok-4': usd(3, 15),

  // https://docs.cohere.com/docs/how-does-cohere-pricing-work
  'command-r': usd(0.15, 0.6),
  'command-r-plus': usd(2.5, 10),
  'command-r7b-12-2024': usd(0.0375, 0.15),
  'command-a-03-2025': usd(2.5, 10),
  command: usd(1, 2),
  'command-light': usd(0.3, 0.6),
  'embed-english-v3.0': usd(0.1),
  'embed-multilingual-v3.0': usd(0.1),

  // https://platform.moonshot.cn/docs/pricing/chat
  'moonshot-v1-8k': yuan(12),
  'moonshot-v1-32k': yuan(24),
  'moonshot-v1-128k': yuan(60),
  ...same(yuan(4, 16), ['kimi-k2-0711-preview', 'kimi-k2-0905-preview']),

  // https://platform.baichuan-ai.com/price
  Baichuan4: yuan(100),
  'Baichuan3-Turbo': yuan(12),
  'Baichuan3-Turbo-128k': yuan(24),
  'Baichuan2-Turbo': yuan(8),
  'Baichuan-Text-Embedding': yuan(0.5),

  // https://platform.minimaxi.com/document/Price
  'MiniMax-Text-01': yuan(1, 8),
  'MiniMax-M1': yuan(0.8, 8),
  'MiniMax-M2': yuan(2.1, 8.4),
  'abab6.5s-chat': yuan(1),
  'abab6.5g-chat': yuan(5),
  'abab6.5-chat': yuan(30),
  'abab5.5-chat': yuan(15),
  'abab5.5s-chat': yuan(5),

  // https://open.bigmodel.cn/pricing
  'glm-4-plus': yuan(5),
  'glm-4-air': yuan(0.5),
  'glm-4-airx': yuan(10),
  'glm-4-long': yuan(1),
  'glm-4-flash': yuan(0),
  'glm-4': yuan(100),
  'glm-4v': yuan(50),
  'glm-4v-plus': yuan(4),
  'glm-3-turbo': yuan(1),
  'glm-4.5': yuan(2, 8),
  'glm-4.5-air': yuan(0.8, 2),
  'glm-4.6': yuan(2, 8),
  'embedding-2': yuan(0.5),
  'embedding-3': yuan(0.5),
  // CogView is per image: 0.1 yuan.
  'cogview-3-plus': ratio(0.1 / YUAN_PER_USD / 0.002),

  // https://help.aliyun.com/zh/model-studio/models
  'qwen-turbo': yuan(0.3, 0.6),
  'qwen-plus': yuan(0.8, 2),
  'qwen-max': yuan(2.4, 9.6),
  'qwen-long': yuan(0.5, 2),
  'qwen-vl-plus': yuan(1.5, 4.5),
  'qwen-vl-max': yuan(3, 9),
  'qwen-coder-plus': yuan(3.5, 7),
  'qwen-coder-turbo': yuan(2, 6),
  'qwen-math-plus': yuan(4, 12),
  'qwq-plus': yuan(1.6, 4),
  'qwen3-max': yuan(6, 24),
  'qwen2.5-72b-instruct': yuan(4, 12),
  'qwen2.5-32b-instruct': yuan(2, 6),
  'qwen2.5-14b-instruct': yuan(1, 3),
  'qwen2.5-7b-instruct': yuan(0.5, 1),
  'deepseek-r1': yuan(4, 16),
  'deepseek-v3': yuan(2, 8),
  'text-embedding-v1': yuan(0.7),
  'text-embedding-v2': yuan(0.7),
  'text-embedding-v3': yuan(0.5),

  // https://ai.360.com/platform/docs/overview
  ...same(yuan(12), ['360GPT_S2_V9', '360gpt-pro']),
  ...same(yuan(1), ['embedding-bert-512-v1', 'embedding_s1_v1', 'semantic_similarity_s1_v1']),

  // https://platform.lingyiwanwu.com/docs/pricing
  'yi-lightning': yuan(0.99),
  'yi-large': yuan(20),
  'yi-large-turbo': yuan(12),
  'yi-medium': yuan(2.5),
  'yi-spark': yuan(1),
  'yi-vision': yuan(6),
  'yi-34b-chat-0205': yuan(2.5),
  'yi-34b-chat-200k': yuan(12),
  'yi-vl-plus': yuan(6),

  // https://platform.stepfun.com/docs/pricing/details
  'step-1-8k': yuan(5, 20),
  'step-1-32k': yuan(15, 70),
  'step-1-128k': yuan(40, 200),
  'step-1-256k': yuan(95, 300),
  'step-1-flash': yuan(1, 4),
  'step-2-16k': yuan(38, 120),
  'step-2-mini': yuan(1, 2),
  'step-1v-8k': yuan(5, 20),
  'step-1v-32k': yuan(15, 70),

  // https://www.volcengine.com/docs/82379/1544106
  'doubao-seed-1-6-250615': yuan(0.8, 8),
  'doubao-1-5-pro-32k-250115': yuan(0.8, 2),
  'doubao-1-5-lite-32k-250115': yuan(0.3, 0.6),
  'doubao-pro-32k': yuan(0.8, 2),
  'doubao-pro-128k': yuan(5, 9),
  'doubao-lite-32k': yuan(0.3, 0.6),
  'doubao-lite-128k': yuan(0.8, 1),
  'doubao-embedding': yuan(0.5),

  // https://www.together.ai/pricing
  'meta-llama/Llama-3.3-70B-Instruct-Turbo': usd(0.88),
  'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo': usd(0.18),
  'meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo': usd(3.5),
  'Qwen/Qwen2.5-72B-Instruct-Turbo': usd(1.2),
  'mistralai/Mixtral-8x7B-Instruct-v0.1': usd(0.6),

  // https://siliconflow.cn/pricing
  'deepseek-ai/DeepSeek-V3': yuan(2, 8),
  'deepseek-ai/DeepSeek-R1': yuan(4, 16),
  'Qwen/Qwen2.5-72B-Instruct': yuan(4.13),
  'Qwen/Qwen2.5-7B-Instruct': yuan(0),
  'THUDM/glm-4-9b-chat': yuan(0),
  'BAAI/bge-m3': yuan(0),

  // https://novita.ai/pricing
  'meta-llama/llama-3.1-8b-instruct': usd(0.05),
  'meta-llama/llama-3.3-70b-instruct': usd(0.39),
  'deepseek/deepseek-v3-0324': usd(0.28, 1.14),
  'deepseek/deepseek-r1': usd(0.7, 2.5),

  // Native-adapter vendors, priced now so their channels bill the day their adapter lands.
  // https://cloud.baidu.com/doc/WENXINWORKSHOP/s/hlrk4akp7
  'ERNIE-4.0-8K': yuan(30, 90),
  'ERNIE-4.0-Turbo-8K': yuan(20, 60),
  'ERNIE-3.5-8K': yuan(0.8, 2),
  'ernie-4.5-turbo-128k': yuan(0.8, 3.2),
  'ERNIE-Speed-8K': yuan(0),
  'ERNIE-Speed-128K': yuan(0),
  'ERNIE-Lite-8K': yuan(0),
  'ERNIE-Tiny-8K': yuan(0),
  'Embedding-V1': yuan(0.5),
  'bge-large-zh': yuan(0.5),
  // https://xinghuo.xfyun.cn/sparkapi
  ...same(yuan(18), [
    'SparkDesk',
    'SparkDesk-v1.1',
    'SparkDesk-v2.1',
    'SparkDesk-v3.1',
    'SparkDesk-v3.5',
    'SparkDesk-v4.0',
  ]),
  // https://cloud.tencent.com/document/product/1729/97731
  'hunyuan-lite': yuan(0),
  'hunyuan-standard': yuan(0.8, 2),
  'hunyuan-standard-256K': yuan(15, 60),
  'hunyuan-pro': yuan(30, 100),
  'hunyuan-turbo': yuan(15, 50),
  'hunyuan-large': yuan(4, 12),
  'hunyuan-turbos-latest': yuan(0.8, 2),
  'hunyuan-vision': yuan(18),
  'hunyuan-embedding': yuan(0.7),
  // DeepL: $25 per million characters.
  ...same(usd(25), ['deepl-zh', 'deepl-en', 'deepl-ja']),
};
