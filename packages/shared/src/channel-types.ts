import type { BadgeColor } from './enums';

export interface ChannelTypeInfo {
  id: number;
  name: string;
  color: BadgeColor;
}

/** SPEC §9: channel type ids and names, in the order the console lists them. */
export const channelTypes: readonly ChannelTypeInfo[] = [
  { id: 1, name: 'OpenAI', color: 'green' },
  { id: 14, name: 'Anthropic Claude', color: 'dark' },
  { id: 33, name: 'AWS', color: 'dark' },
  { id: 3, name: 'Azure OpenAI', color: 'lime' },
  { id: 11, name: 'Google PaLM2', color: 'orange' },
  { id: 24, name: 'Google Gemini', color: 'orange' },
  { id: 28, name: 'Mistral AI', color: 'orange' },
  { id: 41, name: 'Novita', color: 'grape' },
  { id: 40, name: 'ByteDance Doubao', color: 'blue' },
  { id: 15, name: 'Baidu Wenxin', color: 'blue' },
  { id: 17, name: 'Alibaba Tongyi Qianwen', color: 'orange' },
  { id: 18, name: 'iFlytek Spark', color: 'blue' },
  { id: 16, name: 'Zhipu ChatGLM', color: 'violet' },
  { id: 19, name: '360 Zhinao', color: 'gray' },
  { id: 25, name: 'Moonshot AI', color: 'dark' },
  { id: 23, name: 'Tencent Hunyuan', color: 'teal' },
  { id: 26, name: 'Baichuan', color: 'orange' },
  { id: 27, name: 'MiniMax', color: 'red' },
  { id: 29, name: 'Groq', color: 'orange' },
  { id: 30, name: 'Ollama', color: 'dark' },
  { id: 31, name: '01.AI (Yi)', color: 'blue' },
  { id: 32, name: 'StepFun', color: 'blue' },
  { id: 34, name: 'Coze', color: 'blue' },
  { id: 35, name: 'Cohere', color: 'blue' },
  { id: 36, name: 'DeepSeek', color: 'dark' },
  { id: 37, name: 'Cloudflare', color: 'orange' },
  { id: 38, name: 'DeepL', color: 'dark' },
  { id: 39, name: 'together.ai', color: 'blue' },
  { id: 42, name: 'VertexAI', color: 'blue' },
  { id: 43, name: 'Proxy', color: 'blue' },
  { id: 44, name: 'SiliconFlow', color: 'blue' },
  { id: 8, name: 'custom channel', color: 'pink' },
  { id: 22, name: 'knowledge base FastGPT', color: 'blue' },
  { id: 21, name: 'knowledge base AI Proxy', color: 'grape' },
  { id: 20, name: 'proxy OpenRouter', color: 'dark' },
  { id: 2, name: 'proxy API2D', color: 'blue' },
  { id: 5, name: 'proxy OpenAI-SB', color: 'brown' },
  { id: 7, name: 'proxy OhMyGPT', color: 'grape' },
  { id: 10, name: 'proxy AI Proxy', color: 'grape' },
  { id: 4, name: 'proxy CloseAI', color: 'teal' },
  { id: 6, name: 'proxy OpenAI Max', color: 'violet' },
  { id: 9, name: 'proxy AI.LS', color: 'yellow' },
  { id: 12, name: 'proxy API2GPT', color: 'blue' },
  { id: 13, name: 'proxy AIGC2D', color: 'grape' },
];

export const ChannelType = {
  openai: 1,
  api2d: 2,
  azure: 3,
  closeai: 4,
  openaiSb: 5,
  openaiMax: 6,
  ohMyGpt: 7,
  custom: 8,
  ails: 9,
  aiProxy: 10,
  palm: 11,
  api2gpt: 12,
  aigc2d: 13,
  anthropic: 14,
  baidu: 15,
  zhipu: 16,
  ali: 17,
  xunfei: 18,
  ai360: 19,
  openRouter: 20,
  aiProxyLibrary: 21,
  fastGpt: 22,
  tencent: 23,
  gemini: 24,
  moonshot: 25,
  baichuan: 26,
  minimax: 27,
  mistral: 28,
  groq: 29,
  ollama: 30,
  lingYiWanWu: 31,
  stepFun: 32,
  awsClaude: 33,
  coze: 34,
  cohere: 35,
  deepseek: 36,
  cloudflare: 37,
  deepl: 38,
  togetherAi: 39,
  doubao: 40,
  novita: 41,
  vertexAi: 42,
  proxy: 43,
  siliconFlow: 44,
} as const;

const channelTypesById = new Map(channelTypes.map((type) => [type.id, type]));

export function findChannelType(id: number): ChannelTypeInfo | null {
  return channelTypesById.get(id) ?? null;
}

export function isKnownChannelType(id: number): boolean {
  return channelTypesById.has(id);
}
