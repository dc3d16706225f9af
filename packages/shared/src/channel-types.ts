import type { BadgeColor } from './enums';

export interface ChannelTypeInfo {
  id: number;
  name: string;
  color: BadgeColor;
  /** where the vendor's API lives; empty when the channel must supply it (Azure, custom, AWS, Vertex …) */
  defaultBaseUrl: string;
}

/** Channel type ids and names, in the order the console lists them. */
export const channelTypes: readonly ChannelTypeInfo[] = [
  { id: 1, name: 'OpenAI', color: 'green', defaultBaseUrl: 'https://api.openai.com' },
  { id: 14, name: 'Anthropic Claude', color: 'dark', defaultBaseUrl: 'https://api.anthropic.com' },
  { id: 33, name: 'AWS', color: 'dark', defaultBaseUrl: '' },
  { id: 3, name: 'Azure OpenAI', color: 'lime', defaultBaseUrl: '' },
  {
    id: 11,
    name: 'Google PaLM2',
    color: 'orange',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  },
  {
    id: 24,
    name: 'Google Gemini',
    color: 'orange',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  },
  { id: 28, name: 'Mistral AI', color: 'orange', defaultBaseUrl: 'https://api.mistral.ai' },
  { id: 41, name: 'Novita', color: 'grape', defaultBaseUrl: 'https://api.novita.ai/v3/openai' },
  { id: 40, name: 'ByteDance Doubao', color: 'blue', defaultBaseUrl: 'https://ark.cn-beijing.volces.com' },
  { id: 15, name: 'Baidu Wenxin', color: 'blue', defaultBaseUrl: 'https://aip.baidubce.com' },
  {
    id: 17,
    name: 'Alibaba Tongyi Qianwen',
    color: 'orange',
    defaultBaseUrl: 'https://dashscope.aliyuncs.com',
  },
  { id: 18, name: 'iFlytek Spark', color: 'blue', defaultBaseUrl: '' },
  { id: 16, name: 'Zhipu ChatGLM', color: 'violet', defaultBaseUrl: 'https://open.bigmodel.cn' },
  { id: 19, name: '360 Zhinao', color: 'gray', defaultBaseUrl: 'https://api.360.cn' },
  { id: 25, name: 'Moonshot AI', color: 'dark', defaultBaseUrl: 'https://api.moonshot.cn' },
  { id: 23, name: 'Tencent Hunyuan', color: 'teal', defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com' },
  { id: 26, name: 'Baichuan', color: 'orange', defaultBaseUrl: 'https://api.baichuan-ai.com' },
  { id: 27, name: 'MiniMax', color: 'red', defaultBaseUrl: 'https://api.minimax.chat' },
  { id: 29, name: 'Groq', color: 'orange', defaultBaseUrl: 'https://api.groq.com/openai' },
  { id: 30, name: 'Ollama', color: 'dark', defaultBaseUrl: 'http://localhost:11434' },
  { id: 31, name: '01.AI (Yi)', color: 'blue', defaultBaseUrl: 'https://api.lingyiwanwu.com' },
  { id: 32, name: 'StepFun', color: 'blue', defaultBaseUrl: 'https://api.stepfun.com' },
  { id: 34, name: 'Coze', color: 'blue', defaultBaseUrl: 'https://api.coze.com' },
  { id: 35, name: 'Cohere', color: 'blue', defaultBaseUrl: 'https://api.cohere.ai' },
  { id: 36, name: 'DeepSeek', color: 'dark', defaultBaseUrl: 'https://api.deepseek.com' },
  { id: 37, name: 'Cloudflare', color: 'orange', defaultBaseUrl: 'https://api.cloudflare.com' },
  { id: 38, name: 'DeepL', color: 'dark', defaultBaseUrl: 'https://api-free.deepl.com' },
  { id: 39, name: 'together.ai', color: 'blue', defaultBaseUrl: 'https://api.together.xyz' },
  { id: 42, name: 'VertexAI', color: 'blue', defaultBaseUrl: '' },
  { id: 43, name: 'Proxy', color: 'blue', defaultBaseUrl: '' },
  { id: 44, name: 'SiliconFlow', color: 'blue', defaultBaseUrl: 'https://api.siliconflow.cn' },
  { id: 8, name: 'custom channel', color: 'pink', defaultBaseUrl: '' },
  {
    id: 22,
    name: 'knowledge base FastGPT',
    color: 'blue',
    defaultBaseUrl: 'https://fastgpt.run/api/openapi',
  },
  { id: 21, name: 'knowledge base AI Proxy', color: 'grape', defaultBaseUrl: 'https://api.aiproxy.io' },
  { id: 20, name: 'proxy OpenRouter', color: 'dark', defaultBaseUrl: 'https://openrouter.ai/api' },
  { id: 2, name: 'proxy API2D', color: 'blue', defaultBaseUrl: 'https://oa.api2d.net' },
  { id: 5, name: 'proxy OpenAI-SB', color: 'brown', defaultBaseUrl: 'https://api.openai-sb.com' },
  { id: 7, name: 'proxy OhMyGPT', color: 'grape', defaultBaseUrl: 'https://api.ohmygpt.com' },
  { id: 10, name: 'proxy AI Proxy', color: 'grape', defaultBaseUrl: 'https://api.aiproxy.io' },
  { id: 4, name: 'proxy CloseAI', color: 'teal', defaultBaseUrl: 'https://api.closeai-proxy.xyz' },
  { id: 6, name: 'proxy OpenAI Max', color: 'violet', defaultBaseUrl: 'https://api.openaimax.com' },
  { id: 9, name: 'proxy AI.LS', color: 'yellow', defaultBaseUrl: 'https://api.caipacity.com' },
  { id: 12, name: 'proxy API2GPT', color: 'blue', defaultBaseUrl: 'https://api.api2gpt.com' },
  { id: 13, name: 'proxy AIGC2D', color: 'grape', defaultBaseUrl: 'https://api.aigc2d.com' },
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
