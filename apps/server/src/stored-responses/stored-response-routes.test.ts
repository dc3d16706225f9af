import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { closeContext, createContext, type AppContext } from '../context';
import { convertResponsesRequest } from '../protocols/openai-responses/convert-responses-request';
import { buildResponsesObject, createResponsesContext } from '../protocols/openai-responses/responses-object';
import { NO_CALLER_LIMITS } from '../limits/caller-limits';
import type { RelayCaller } from '../relay/key-auth';
import { RelayError, toOpenAIErrorBody } from '../relay/relay-error';
import { saveResponse } from './response-storage';
import { registerStoredResponseRoutes } from './stored-response-routes';

function callerOf(userId: number): RelayCaller {
  return {
    key: `key-${userId}`,
    tokenId: userId * 10,
    tokenName: 'test',
    isUnlimitedToken: true,
    tokenRemainQuota: 0,
    tokenUsedQuota: 0,
    tokenExpiredTime: -1,
    allowedModels: null,
    userId,
    username: `user${userId}`,
    userQuota: 0,
    userUsedQuota: 0,
    groups: ['default'],
    pinnedChannelId: null,
    limits: NO_CALLER_LIMITS,
  };
}

/** The routes in a scope like the relay's: the caller from the key check (here a test header), OpenAI errors. */
async function buildScope(context: AppContext): Promise<FastifyInstance> {
  const app = Fastify();
  app.decorateRequest('relayCaller', null);
  app.addHook('onRequest', async (request) => {
    request.relayCaller = callerOf(Number(request.headers['x-test-user']));
  });
  app.setErrorHandler((error, request, reply) => {
    if (!(error instanceof RelayError)) throw error;
    return reply.status(error.statusCode).send(toOpenAIErrorBody(error, request.id));
  });
  registerStoredResponseRoutes(app, context);
  await app.ready();
  return app;
}

describe('GET and DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items', () => {
  let folder: string;
  let context: AppContext;
  let app: FastifyInstance;
  const as = (userId: number, method: 'GET' | 'DELETE', url: string) =>
    app.inject({ method, url, headers: { 'x-test-user': String(userId) } });

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-response-routes-'));
    context = await createContext(
      loadConfig({ SQLITE_PATH: path.join(folder, 'test.db'), SESSION_SECRET: 'response-routes-test' }),
    );
    app = await buildScope(context);
  });
  afterAll(async () => {
    await app.close();
    await closeContext(context);
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers 400 saying how to turn storage on while it is off', async () => {
    await context.options.set('ResponsesStorageEnabled', 'false');
    const answer = await as(1, 'GET', '/responses/resp_123');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatchObject({ type: 'invalid_request_error' });
    expect(answer.json().error.message).toMatch(/turned off.*Settings → Operation/);
    expect((await as(1, 'DELETE', '/responses/resp_123')).statusCode).toBe(400);
  });

  it("reads and deletes the caller's own response; another user's is not found", async () => {
    await context.options.set('ResponsesStorageEnabled', 'true');
    const echo = convertResponsesRequest({ model: 'gpt-4o', input: 'Hi' }).echo;
    const response = buildResponsesObject(createResponsesContext(echo), { status: 'completed', output: [] });
    const conversation = { messages: [{ role: 'user' as const, content: 'Hi' }], foundTools: [] };
    await saveResponse(context, { userId: 1, tokenId: 10 }, conversation, response);

    const own = await as(1, 'GET', `/responses/${response.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual(response);

    const other = await as(2, 'GET', `/responses/${response.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toContain(`No response found with id '${response.id}'`);
    expect((await as(2, 'DELETE', `/responses/${response.id}`)).statusCode).toBe(404);

    const deleted = await as(1, 'DELETE', `/responses/${response.id}`);
    expect(deleted.json()).toEqual({ id: response.id, object: 'response', deleted: true });
    expect((await as(1, 'GET', `/responses/${response.id}`)).statusCode).toBe(404);
  });

  it("lists the input items of the caller's own response, paged as the API pages them", async () => {
    await context.options.set('ResponsesStorageEnabled', 'true');
    const echo = convertResponsesRequest({ model: 'gpt-4o', input: 'Hi' }).echo;
    const response = buildResponsesObject(createResponsesContext(echo), { status: 'completed', output: [] });
    await saveResponse(
      context,
      { userId: 1, tokenId: 10 },
      {
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        ],
        foundTools: [],
      },
      response,
    );
    const all = await as(1, 'GET', `/responses/${response.id}/input_items?order=asc`);
    expect(all.statusCode).toBe(200);
    const list = all.json();
    expect(list.data.map((item: { type: string }) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
    expect(list).toMatchObject({
      object: 'list',
      has_more: false,
      first_id: list.data[0].id,
      last_id: list.data[2].id,
    });

    const newest = (await as(1, 'GET', `/responses/${response.id}/input_items?limit=1`)).json();
    expect(newest).toMatchObject({
      has_more: true,
      data: [{ type: 'function_call_output', output: 'sunny' }],
    });
    const next = (
      await as(1, 'GET', `/responses/${response.id}/input_items?limit=1&after=${newest.last_id}`)
    ).json();
    expect(next.data).toMatchObject([{ type: 'function_call', call_id: 'call_1' }]);

    expect((await as(2, 'GET', `/responses/${response.id}/input_items`)).statusCode).toBe(404);
    const badLimit = await as(1, 'GET', `/responses/${response.id}/input_items?limit=101`);
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().error.param).toBe('limit');
    expect((await as(1, 'GET', `/responses/${response.id}/input_items?order=up`)).json().error.param).toBe(
      'order',
    );

    await context.options.set('ResponsesStorageEnabled', 'false');
    expect((await as(1, 'GET', `/responses/${response.id}/input_items`)).statusCode).toBe(400);
  });
});
