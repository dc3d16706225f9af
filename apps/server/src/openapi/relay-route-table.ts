import type { ApiMethod } from './api-route-contract';

/** The relay, described by path and the client protocol it speaks; its bodies are the vendors' own APIs. */
export interface RelayRouteDescription {
  methods: ApiMethod[];
  path: string;
  protocol: string;
}

export const relayRouteTable: readonly RelayRouteDescription[] = [
  {
    methods: ['POST'],
    path: '/v1/chat/completions',
    protocol: 'OpenAI Chat Completions (JSON or server-sent events)',
  },
  { methods: ['POST'], path: '/v1/completions', protocol: 'OpenAI Completions (legacy)' },
  { methods: ['POST'], path: '/v1/responses', protocol: 'OpenAI Responses' },
  {
    methods: ['GET', 'DELETE'],
    path: '/v1/responses/{id}',
    protocol: 'OpenAI Responses (stored responses, when ResponsesStorageEnabled)',
  },
  {
    methods: ['GET'],
    path: '/v1/responses/{id}/input_items',
    protocol: 'OpenAI Responses (stored responses)',
  },
  { methods: ['POST'], path: '/v1/messages', protocol: 'Anthropic Messages' },
  { methods: ['POST'], path: '/v1/messages/count_tokens', protocol: 'Anthropic Messages token counting' },
  { methods: ['POST'], path: '/v1/embeddings', protocol: 'OpenAI Embeddings' },
  { methods: ['POST'], path: '/v1/moderations', protocol: 'OpenAI Moderations' },
  { methods: ['POST'], path: '/v1/images/generations', protocol: 'OpenAI Images' },
  { methods: ['POST'], path: '/v1/audio/speech', protocol: 'OpenAI Audio (speech)' },
  { methods: ['POST'], path: '/v1/audio/transcriptions', protocol: 'OpenAI Audio (multipart upload)' },
  { methods: ['POST'], path: '/v1/audio/translations', protocol: 'OpenAI Audio (multipart upload)' },
  { methods: ['GET'], path: '/v1/models', protocol: 'OpenAI Models (the models the key may use)' },
  {
    methods: ['GET'],
    path: '/v1beta/models',
    protocol: 'Google Gemini (models and generateContent under /v1beta/models/…)',
  },
  {
    methods: ['GET'],
    path: '/v1/dashboard/billing/subscription',
    protocol: 'OpenAI legacy billing (also without /v1)',
  },
  {
    methods: ['GET'],
    path: '/v1/dashboard/billing/usage',
    protocol: 'OpenAI legacy billing (also without /v1)',
  },
];
