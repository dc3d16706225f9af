import {
  channelFieldsSchema,
  channelListQuerySchema,
  channelUpdateSchema,
  createRedemptionRequestSchema,
  createTokenRequestSchema,
  createUserRequestSchema,
  emailBindQuerySchema,
  emailRequestQuerySchema,
  keywordPageQuerySchema,
  logClearQuerySchema,
  logQuerySchema,
  loginRequestSchema,
  manageUserRequestSchema,
  oauthCallbackQuerySchema,
  optionUpdateRequestSchema,
  pageQuerySchema,
  passwordResetRequestSchema,
  redemptionStatusRequestSchema,
  registerRequestSchema,
  selfUpdateRequestSchema,
  statusOnlyQuerySchema,
  tokenListQuerySchema,
  tokenStatusRequestSchema,
  topupRequestSchema,
  updateRedemptionRequestSchema,
  updateTokenRequestSchema,
  updateUserRequestSchema,
  userListQuerySchema,
  userSearchQuerySchema,
  wechatCodeQuerySchema,
} from '@gatehouse/shared';
import { z } from 'zod';

/** Who may call a route: anyone, a signed-in user (session cookie or access token), an admin, or root. */
export type ApiAccess = 'public' | 'user' | 'admin' | 'root';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One management API route as the reference describes it: the same zod schemas from packages/shared that
 * the route's handler parses its query and body with (`parseWith`). Paths use OpenAPI's `{id}` form.
 */
export interface ApiRouteContract {
  method: ApiMethod;
  path: string;
  summary: string;
  tag: string;
  access: ApiAccess;
  query?: z.ZodType;
  body?: z.ZodType;
  /** the body may be either of these (the route picks by a query parameter) */
  bodyOneOf?: z.ZodType[];
  /** GET routes that change something (the cross-site guard refuses them from other sites) */
  changesState?: boolean;
}

const idPath = '{id}';
const channelTestQuery = z.object({ model: z.string().optional() });
const channelBatchTestQuery = z.object({ scope: z.enum(['all', 'disabled']).optional() });

/**
 * Every `/api` route. A route registered without an entry here fails `openapi.test.ts`, and so does an entry
 * without a registered route; keep the schemas the same ones the handler parses with.
 */
export const apiRouteTable: readonly ApiRouteContract[] = [
  // status and content
  {
    method: 'GET',
    path: '/api/status',
    tag: 'status',
    access: 'public',
    summary: 'Server status, branding and which sign-in methods are on',
  },
  { method: 'GET', path: '/api/notice', tag: 'status', access: 'public', summary: 'The notice (Markdown)' },
  { method: 'GET', path: '/api/about', tag: 'status', access: 'public', summary: 'The About page content' },
  {
    method: 'GET',
    path: '/api/home_page_content',
    tag: 'status',
    access: 'public',
    summary: 'The home page content',
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    tag: 'status',
    access: 'public',
    summary: 'This OpenAPI document',
  },
  {
    method: 'GET',
    path: '/api/release/latest',
    tag: 'status',
    access: 'admin',
    summary: 'The latest published release, for "check for updates"',
  },
  // sign-in and accounts
  {
    method: 'POST',
    path: '/api/user/login',
    tag: 'accounts',
    access: 'public',
    summary: 'Sign in with username and password; sets the session cookie',
    body: loginRequestSchema,
  },
  {
    method: 'GET',
    path: '/api/user/logout',
    tag: 'accounts',
    access: 'public',
    summary: 'Sign out',
    changesState: true,
  },
  {
    method: 'POST',
    path: '/api/user/register',
    tag: 'accounts',
    access: 'public',
    summary: 'Register a new account',
    body: registerRequestSchema,
  },
  {
    method: 'GET',
    path: '/api/verification',
    tag: 'accounts',
    access: 'public',
    summary: 'Mail a verification code',
    query: emailRequestQuerySchema,
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/reset_password',
    tag: 'accounts',
    access: 'public',
    summary: 'Mail a password-reset link',
    query: emailRequestQuerySchema,
    changesState: true,
  },
  {
    method: 'POST',
    path: '/api/user/reset',
    tag: 'accounts',
    access: 'public',
    summary: 'Set a new random password from a mailed reset link',
    body: passwordResetRequestSchema,
  },
  {
    method: 'GET',
    path: '/api/oauth/state',
    tag: 'accounts',
    access: 'public',
    summary: 'A one-time OAuth state (also set as a cookie)',
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/oauth/github',
    tag: 'accounts',
    access: 'public',
    summary: 'GitHub callback: sign in, or bind when signed in',
    query: oauthCallbackQuerySchema,
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/oauth/lark',
    tag: 'accounts',
    access: 'public',
    summary: 'Lark callback: sign in, or bind when signed in',
    query: oauthCallbackQuerySchema,
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/oauth/wechat',
    tag: 'accounts',
    access: 'public',
    summary: 'Sign in with a WeChat code',
    query: wechatCodeQuerySchema,
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/oauth/wechat/bind',
    tag: 'accounts',
    access: 'user',
    summary: 'Bind WeChat with a code',
    query: wechatCodeQuerySchema,
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/oauth/email/bind',
    tag: 'accounts',
    access: 'user',
    summary: 'Bind an e-mail address with a mailed code',
    query: emailBindQuerySchema,
    changesState: true,
  },
  // the signed-in user
  { method: 'GET', path: '/api/user/self', tag: 'self', access: 'user', summary: 'The signed-in user' },
  {
    method: 'PUT',
    path: '/api/user/self',
    tag: 'self',
    access: 'user',
    summary: 'Change display name or password',
    body: selfUpdateRequestSchema,
  },
  {
    method: 'DELETE',
    path: '/api/user/self',
    tag: 'self',
    access: 'user',
    summary: 'Delete the own account (not root)',
  },
  {
    method: 'GET',
    path: '/api/user/sessions',
    tag: 'self',
    access: 'user',
    summary: 'The signed-in console sessions (device, IP, last seen)',
  },
  {
    method: 'DELETE',
    path: '/api/user/sessions/{id}',
    tag: 'self',
    access: 'user',
    summary: 'Sign out one session',
  },
  {
    method: 'DELETE',
    path: '/api/user/sessions',
    tag: 'self',
    access: 'user',
    summary: 'Sign out every other session',
  },
  {
    method: 'GET',
    path: '/api/user/token',
    tag: 'self',
    access: 'user',
    summary: 'Generate a new system access token',
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/user/aff',
    tag: 'self',
    access: 'user',
    summary: 'The invite code (created on first call)',
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/user/available_models',
    tag: 'self',
    access: 'user',
    summary: "Models the user's group can use",
  },
  {
    method: 'POST',
    path: '/api/user/topup',
    tag: 'self',
    access: 'user',
    summary: 'Redeem a code; answers the quota added',
    body: topupRequestSchema,
  },
  // users (admin)
  {
    method: 'GET',
    path: '/api/user',
    tag: 'users',
    access: 'admin',
    summary: 'List users',
    query: userListQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/user/search',
    tag: 'users',
    access: 'admin',
    summary: 'Search users',
    query: userSearchQuerySchema,
  },
  { method: 'GET', path: `/api/user/${idPath}`, tag: 'users', access: 'admin', summary: 'One user' },
  {
    method: 'POST',
    path: '/api/user',
    tag: 'users',
    access: 'admin',
    summary: 'Create a user',
    body: createUserRequestSchema,
  },
  {
    method: 'PUT',
    path: '/api/user',
    tag: 'users',
    access: 'admin',
    summary: 'Edit a user',
    body: updateUserRequestSchema,
  },
  {
    method: 'POST',
    path: '/api/user/manage',
    tag: 'users',
    access: 'admin',
    summary: 'Enable, disable, delete, promote or demote a user',
    body: manageUserRequestSchema,
  },
  {
    method: 'GET',
    path: '/api/group',
    tag: 'users',
    access: 'admin',
    summary: 'Group names (from the GroupRatio option)',
  },
  // options (root)
  {
    method: 'GET',
    path: '/api/option',
    tag: 'options',
    access: 'root',
    summary: 'Every option (secrets blank)',
  },
  {
    method: 'PUT',
    path: '/api/option',
    tag: 'options',
    access: 'root',
    summary: 'Set one option',
    body: optionUpdateRequestSchema,
  },
  // channels (admin)
  {
    method: 'GET',
    path: '/api/channel',
    tag: 'channels',
    access: 'admin',
    summary: 'List channels (keys blank)',
    query: channelListQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/channel/search',
    tag: 'channels',
    access: 'admin',
    summary: 'Search channels',
    query: channelListQuerySchema,
  },
  {
    method: 'GET',
    path: `/api/channel/${idPath}`,
    tag: 'channels',
    access: 'admin',
    summary: 'One channel (the key only for root)',
  },
  {
    method: 'POST',
    path: '/api/channel',
    tag: 'channels',
    access: 'admin',
    summary: 'Create channels (one per key line in batch mode)',
    body: channelFieldsSchema,
  },
  {
    method: 'PUT',
    path: '/api/channel',
    tag: 'channels',
    access: 'admin',
    summary: 'Edit a channel; a blank key keeps the stored one',
    body: channelUpdateSchema,
  },
  {
    method: 'DELETE',
    path: `/api/channel/${idPath}`,
    tag: 'channels',
    access: 'admin',
    summary: 'Delete a channel',
  },
  {
    method: 'DELETE',
    path: '/api/channel/disabled',
    tag: 'channels',
    access: 'admin',
    summary: 'Delete every disabled channel',
  },
  {
    method: 'GET',
    path: '/api/channel/models',
    tag: 'channels',
    access: 'admin',
    summary: 'Every known model',
  },
  {
    method: 'GET',
    path: '/api/models',
    tag: 'channels',
    access: 'admin',
    summary: 'Known model names by channel type',
  },
  {
    method: 'GET',
    path: `/api/channel/test/${idPath}`,
    tag: 'channels',
    access: 'admin',
    summary: 'Test one channel with a model',
    query: channelTestQuery,
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/channel/test',
    tag: 'channels',
    access: 'admin',
    summary: 'Test every (or every disabled) channel in the background',
    query: channelBatchTestQuery,
    changesState: true,
  },
  {
    method: 'GET',
    path: `/api/channel/update_balance/${idPath}`,
    tag: 'channels',
    access: 'admin',
    summary: "Ask the channel's vendor for the account balance and store it",
    changesState: true,
  },
  {
    method: 'GET',
    path: '/api/channel/update_balance',
    tag: 'channels',
    access: 'admin',
    summary: 'Refresh the balance of every enabled channel that has a balance API, in the background',
    changesState: true,
  },
  // keys
  {
    method: 'GET',
    path: '/api/token',
    tag: 'keys',
    access: 'user',
    summary: 'List own API keys',
    query: tokenListQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/token/search',
    tag: 'keys',
    access: 'user',
    summary: 'Search own API keys',
    query: keywordPageQuerySchema,
  },
  { method: 'GET', path: `/api/token/${idPath}`, tag: 'keys', access: 'user', summary: 'One own API key' },
  {
    method: 'POST',
    path: '/api/token',
    tag: 'keys',
    access: 'user',
    summary: 'Create an API key',
    body: createTokenRequestSchema,
  },
  {
    method: 'PUT',
    path: '/api/token',
    tag: 'keys',
    access: 'user',
    summary: 'Edit an API key, or only its status with status_only',
    query: statusOnlyQuerySchema,
    bodyOneOf: [updateTokenRequestSchema, tokenStatusRequestSchema],
  },
  {
    method: 'DELETE',
    path: `/api/token/${idPath}`,
    tag: 'keys',
    access: 'user',
    summary: 'Delete an own API key',
  },
  // redemption codes (admin)
  {
    method: 'GET',
    path: '/api/redemption',
    tag: 'redemptions',
    access: 'admin',
    summary: 'List redemption codes',
    query: pageQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/redemption/search',
    tag: 'redemptions',
    access: 'admin',
    summary: 'Search redemption codes',
    query: keywordPageQuerySchema,
  },
  {
    method: 'GET',
    path: `/api/redemption/${idPath}`,
    tag: 'redemptions',
    access: 'admin',
    summary: 'One redemption code',
  },
  {
    method: 'POST',
    path: '/api/redemption',
    tag: 'redemptions',
    access: 'admin',
    summary: 'Create a batch of codes; answers the codes',
    body: createRedemptionRequestSchema,
  },
  {
    method: 'PUT',
    path: '/api/redemption',
    tag: 'redemptions',
    access: 'admin',
    summary: 'Edit a code, or only its status with status_only',
    query: statusOnlyQuerySchema,
    bodyOneOf: [updateRedemptionRequestSchema, redemptionStatusRequestSchema],
  },
  {
    method: 'DELETE',
    path: `/api/redemption/${idPath}`,
    tag: 'redemptions',
    access: 'admin',
    summary: 'Delete a code',
  },
  // consumption logs
  {
    method: 'GET',
    path: '/api/log',
    tag: 'logs',
    access: 'admin',
    summary: 'Every consumption log, filtered',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/self',
    tag: 'logs',
    access: 'user',
    summary: 'Own consumption logs, filtered',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/pricing',
    tag: 'logs',
    access: 'user',
    summary: 'The models the user can call, with their ratios and prices per million tokens',
  },
  {
    method: 'GET',
    path: '/api/user/dashboard',
    tag: 'logs',
    access: 'user',
    summary: 'Own requests, tokens and quota per day and model over the last 7 days',
  },
  {
    method: 'GET',
    path: '/api/log/stat',
    tag: 'logs',
    access: 'admin',
    summary: 'Quota used by the filtered logs',
    query: logQuerySchema,
  },
  {
    method: 'GET',
    path: '/api/log/self/stat',
    tag: 'logs',
    access: 'user',
    summary: 'Quota used by own filtered logs',
    query: logQuerySchema,
  },
  {
    method: 'DELETE',
    path: '/api/log',
    tag: 'logs',
    access: 'admin',
    summary: 'Delete logs older than a time',
    query: logClearQuerySchema,
  },
];

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
