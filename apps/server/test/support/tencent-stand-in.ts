import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { signTc3 } from '../../src/providers/tencent/tencent-tc3-signature';
import type {
  HunyuanChatResponse,
  HunyuanMessage,
  HunyuanUsage,
} from '../../src/providers/tencent/tencent-wire-types';

export interface TencentReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

/** How the stand-in answers; every field is optional, the default is a well-behaved Hunyuan. */
export interface TencentBehaviour {
  /** answer with this Response.Error (with HTTP 200, as API 3.0 does) */
  error?: { Code: string; Message: string };
  /** answer a recorded transcript of providers/tencent/__fixtures__ */
  fixture?: { json?: string; sse?: string };
  words?: string[];
  /**
   * prompt tokens read from Hunyuan's cache: Usage.PromptTokensDetails.CachedTokens, a string in the API
   * reference (tencentcloud hunyuan v20230901 PromptTokensDetails)
   */
  cachedTokens?: number;
}

export interface TencentStandIn {
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  secretId: string;
  secretKey: string;
  /** the channel key: AppId|SecretId|SecretKey */
  key: string;
  received: TencentReceivedRequest[];
  behaviour: TencentBehaviour;
  close(): Promise<void>;
}

const FIXTURES = new URL('../../src/providers/tencent/__fixtures__/', import.meta.url);
const USAGE = { PromptTokens: 12, CompletionTokens: 5, TotalTokens: 17 };
const REQUEST_ID = 'stand-in-request-id';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sendResponse(response: ServerResponse, body: Record<string, unknown>) {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ Response: { ...body, RequestId: REQUEST_ID } }));
}

const sendError = (response: ServerResponse, Code: string, Message: string) =>
  sendResponse(response, { Error: { Code, Message } });

/**
 * API 3.0's checks of a signed request (https://cloud.tencent.com/document/api/1729/101843): the signature
 * recomputed over the received host, content type and body, the SecretId, and a timestamp within 5 minutes.
 */
function checkSignature(
  standIn: TencentStandIn,
  headers: IncomingHttpHeaders,
  body: string,
): [string, string] | null {
  const authorization = headers.authorization ?? '';
  const timestamp = Number(headers['x-tc-timestamp']);
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/hunyuan\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return ['AuthFailure.InvalidAuthorization', 'Authorization header is invalid.'];
  if (match[1] !== standIn.secretId) return ['AuthFailure.SecretIdNotFound', 'The SecretId is not found.'];
  if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) {
    return ['AuthFailure.SignatureExpire', 'Signature expired.'];
  }
  const expected = signTc3({
    secretId: standIn.secretId,
    secretKey: standIn.secretKey,
    service: 'hunyuan',
    host: headers.host ?? '',
    contentType: headers['content-type'] ?? '',
    payload: body,
    timestamp,
  });
  if (expected.signature !== match[3]) {
    return [
      'AuthFailure.SignatureFailure',
      'The provided credentials could not be validated. Please check your signature is correct.',
    ];
  }
  return null;
}

/** A call of the first tool when tools were offered and the last message is not its result, else words. */
function answerOf(body: Record<string, unknown>, words: string[], usage: HunyuanUsage): HunyuanChatResponse {
  const tools = Array.isArray(body.Tools) ? (body.Tools as Array<{ Function: { Name: string } }>) : [];
  const messages = body.Messages as HunyuanMessage[];
  const base = { Id: 'stand-in-chat', Created: 1_700_000_000, Usage: usage };
  if (tools.length > 0 && messages.at(-1)?.Role !== 'tool') {
    const call = {
      Id: 'call_standin01',
      Type: 'function' as const,
      Function: { Name: tools[0]!.Function.Name, Arguments: '{"city":"Paris"}' },
    };
    return {
      ...base,
      Choices: [
        {
          Index: 0,
          FinishReason: 'tool_calls',
          Message: { Role: 'assistant', Content: '', ToolCalls: [call] },
        },
      ],
    };
  }
  return {
    ...base,
    Choices: [{ Index: 0, FinishReason: 'stop', Message: { Role: 'assistant', Content: words.join('') } }],
  };
}

function answerChat(standIn: TencentStandIn, response: ServerResponse, body: Record<string, unknown>) {
  if (typeof body.Model !== 'string')
    return sendError(response, 'MissingParameter', 'The request is missing a required parameter `Model`.');
  const messages = body.Messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    return sendError(response, 'MissingParameter', 'The request is missing a required parameter `Messages`.');
  }
  if ((messages as HunyuanMessage[]).some((message, index) => message.Role === 'system' && index > 0)) {
    return sendError(response, 'InvalidParameterValue', 'Messages 中 system 角色必须位于列表的最开始');
  }
  const isStream = body.Stream === true;
  const recorded = isStream ? standIn.behaviour.fixture?.sse : standIn.behaviour.fixture?.json;
  if (recorded) {
    response.writeHead(200, { 'content-type': isStream ? 'text/event-stream' : 'application/json' });
    return response.end(readFileSync(new URL(recorded, FIXTURES)));
  }
  const words = standIn.behaviour.words ?? ['Hello', ' from', ' hunyuan'];
  const { cachedTokens } = standIn.behaviour;
  const usage: HunyuanUsage = cachedTokens
    ? { ...USAGE, PromptTokensDetails: { CachedTokens: String(cachedTokens) } }
    : USAGE;
  const answer = answerOf(body, words, usage);
  if (!isStream) return sendResponse(response, answer as Record<string, unknown>);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const message = answer.Choices![0]!.Message!;
  const pieces = message.ToolCalls ? [''] : words;
  pieces.forEach((piece, index) => {
    const isLast = index === pieces.length - 1;
    const delta = {
      Role: 'assistant',
      Content: piece,
      ...(message.ToolCalls
        ? { ToolCalls: message.ToolCalls.map((call, i) => ({ ...call, Index: i })) }
        : {}),
    };
    const event = {
      Id: answer.Id,
      Created: answer.Created,
      Choices: [{ Delta: delta, FinishReason: isLast ? answer.Choices![0]!.FinishReason : '' }],
      Usage: isLast
        ? usage
        : { ...usage, CompletionTokens: index + 1, TotalTokens: USAGE.PromptTokens + index + 1 },
    };
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  });
  response.end();
}

function answerEmbedding(response: ServerResponse, body: Record<string, unknown>) {
  const inputs = Array.isArray(body.InputList)
    ? body.InputList.map(String)
    : typeof body.Input === 'string'
      ? [body.Input]
      : null;
  if (!inputs)
    return sendError(response, 'MissingParameter', 'The request is missing a required parameter `Input`.');
  sendResponse(response, {
    Data: inputs.map((text, index) => ({
      Embedding: [text.length / 10, 0.5],
      Index: index,
      Object: 'embedding',
    })),
    Usage: { PromptTokens: inputs.length * 2, TotalTokens: inputs.length * 2 },
  });
}

/**
 * Tencent Hunyuan's API 3.0 on 127.0.0.1 (random port): POST / with X-TC-Action ChatCompletions (JSON, and
 * SSE events with Delta, FinishReason and Usage; tool calls when Tools are offered) or GetEmbedding, version
 * 2023-09-01. It verifies the TC3-HMAC-SHA256 signature as Tencent does and answers every failure with HTTP
 * 200 and Response.Error. Every request is recorded.
 */
export async function startTencentStandIn(
  options: { secretId?: string; secretKey?: string } = {},
): Promise<TencentStandIn> {
  const sockets = new Set<Socket>();
  const secretId = options.secretId ?? 'AKIDstandin0123456789';
  const secretKey = options.secretKey ?? 'standin-secret-key';
  const standIn: TencentStandIn = {
    url: '',
    secretId,
    secretKey,
    key: `1250000000|${secretId}|${secretKey}`,
    received: [],
    behaviour: {},
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(text);
        json = isObject(parsed) ? parsed : null;
      } catch {
        json = null;
      }
      standIn.received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        json,
      });
      if (request.method !== 'POST' || request.url !== '/')
        return sendError(response, 'InvalidAction', 'The action is not found.');
      const refused = checkSignature(standIn, request.headers, text);
      if (refused) return sendError(response, ...refused);
      if (request.headers['x-tc-version'] !== '2023-09-01')
        return sendError(response, 'NoSuchVersion', 'The API version does not exist.');
      if (standIn.behaviour.error)
        return sendError(response, standIn.behaviour.error.Code, standIn.behaviour.error.Message);
      if (!json) return sendError(response, 'InvalidParameter', 'The body is not JSON.');
      const action = request.headers['x-tc-action'];
      if (action === 'ChatCompletions') return answerChat(standIn, response, json);
      if (action === 'GetEmbedding') return answerEmbedding(response, json);
      sendError(response, 'InvalidAction', `The action ${String(action)} is not found.`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
